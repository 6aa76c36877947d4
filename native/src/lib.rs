//! simkit's native engines (DESIGN.md, "Native engines"): the built-in games and strategies in
//! Rust, playing whole chunks of games and handing back columns. The Python engines are the
//! reference: for the same settings, strategies, root seed and game index both give identical
//! rows (`tests/native/`).
//!
//! Pure Rust below `python`: `cargo test` builds without the Python binding.

pub mod alien_attack;
pub mod batch;
pub mod eight_bit;
pub mod mcts;
pub mod oh_no;
pub mod params;
pub mod position;
pub mod rng;
pub mod space_alert;

/// For the games' `bench_games` cargo tests.
#[cfg(test)]
pub(crate) mod test_clock {
    /// This thread's CPU seconds (Linux; wall seconds elsewhere): the machine may be shared, and
    /// the floors are per core.
    pub fn cpu_seconds(wall: std::time::Instant) -> f64 {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
            .map_or_else(|| wall.elapsed().as_secs_f64(), |ns| ns / 1e9)
    }

    /// Whether a bench plays `strategy`: every one, unless the environment variable `var` names
    /// one (the start of its name, in any case: `greedy`, `mcts`).
    pub fn chosen(var: &str, strategy: &impl std::fmt::Debug) -> bool {
        let only = std::env::var(var).unwrap_or_default().to_lowercase();
        format!("{strategy:?}").to_lowercase().starts_with(&only)
    }
}

#[cfg(feature = "python")]
mod python;
