//! simkit's native engines (DESIGN.md, "Native engines"): the built-in games and strategies in
//! Rust, playing whole chunks of games and handing back columns. The Python engines are the
//! reference: for the same settings, strategies, root seed and game index both give identical
//! rows (`tests/native/`).
//!
//! Pure Rust below `python`: `cargo test` builds without the Python binding.

pub mod alien_attack;
pub mod batch;
pub mod eight_bit;
pub mod oh_no;
pub mod rng;
pub mod space_alert;

#[cfg(feature = "python")]
mod python;
