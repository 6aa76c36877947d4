//! The randomness both engines share, drawn the same way to the bit (DESIGN.md, "Randomness").
//!
//! Game `i` of a run with root seed `R` draws everything from numpy's
//! `SeedSequence([R, i])`; each stream is a CPython `random.Random` seeded with 128 bits of a child
//! sequence's output (`simkit/core/seeds.py`). This module re-implements exactly those pieces:
//! numpy's SeedSequence hashing (pool of four 32-bit words), CPython's Mersenne Twister with its
//! `init_by_array` seeding from a Python int, and the `random.Random` methods the engines call
//! (`random`, `_randbelow`, `shuffle`, `choice`, `randint`, `randrange`). A test in
//! `tests/native/test_rng.py` compares every one of them with numpy and CPython.

const POOL_SIZE: usize = 4;
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;

/// The 32-bit words of a non-negative integer, least significant first (`[0]` for zero), as
/// numpy's `_int_to_uint32_array` gives them.
fn int_words(mut n: u64, out: &mut Vec<u32>) {
    if n == 0 {
        out.push(0);
        return;
    }
    while n > 0 {
        out.push(n as u32);
        n >>= 32;
    }
}

fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut value = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    value = value.wrapping_mul(*hash_const);
    value ^ (value >> XSHIFT)
}

fn mix(x: u32, y: u32) -> u32 {
    let result = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    result ^ (result >> XSHIFT)
}

/// numpy's `SeedSequence(entropy, spawn_key=...)`, for integer entropy and spawn keys.
#[derive(Clone, Debug)]
pub struct SeedSequence {
    entropy: Vec<u64>,
    spawn_key: Vec<u64>,
    pool: [u32; POOL_SIZE],
}

impl SeedSequence {
    pub fn new(entropy: &[u64], spawn_key: &[u64]) -> SeedSequence {
        let mut run = Vec::with_capacity(8);
        for &e in entropy {
            int_words(e, &mut run);
        }
        let mut spawn = Vec::with_capacity(4);
        for &k in spawn_key {
            int_words(k, &mut spawn);
        }
        if !spawn.is_empty() && run.len() < POOL_SIZE {
            run.resize(POOL_SIZE, 0);
        }
        run.extend_from_slice(&spawn);
        let mut pool = [0u32; POOL_SIZE];
        let mut hash_const = INIT_A;
        for (i, slot) in pool.iter_mut().enumerate() {
            *slot = hashmix(run.get(i).copied().unwrap_or(0), &mut hash_const);
        }
        for i_src in 0..POOL_SIZE {
            for i_dst in 0..POOL_SIZE {
                if i_src != i_dst {
                    let h = hashmix(pool[i_src], &mut hash_const);
                    pool[i_dst] = mix(pool[i_dst], h);
                }
            }
        }
        for &word in run.iter().skip(POOL_SIZE) {
            for slot in pool.iter_mut() {
                let h = hashmix(word, &mut hash_const);
                *slot = mix(*slot, h);
            }
        }
        SeedSequence {
            entropy: entropy.to_vec(),
            spawn_key: spawn_key.to_vec(),
            pool,
        }
    }

    /// The child at `path` below this sequence: the same entropy, the spawn key extended.
    pub fn child(&self, path: &[u64]) -> SeedSequence {
        let mut key = self.spawn_key.clone();
        key.extend_from_slice(path);
        SeedSequence::new(&self.entropy, &key)
    }

    /// `generate_state(n_words, np.uint32)`.
    pub fn generate_state(&self, n_words: usize) -> Vec<u32> {
        let mut hash_const = INIT_B;
        (0..n_words)
            .map(|i| {
                let mut v = self.pool[i % POOL_SIZE] ^ hash_const;
                hash_const = hash_const.wrapping_mul(MULT_B);
                v = v.wrapping_mul(hash_const);
                v ^ (v >> XSHIFT)
            })
            .collect()
    }
}

/// The stream indices of `simkit/core/seeds.py`.
pub const SETUP: u64 = 0;
pub const CHANCE: u64 = 1;
pub const FIRST_SEAT: u64 = 2;

/// `seeds.game_sequence(root_seed, game_index)`.
pub fn game_sequence(root_seed: u64, game_index: u64) -> SeedSequence {
    SeedSequence::new(&[root_seed, game_index], &[])
}

/// `seeds.streams(seq, count, *path)`: `count` generators, each seeded with 128 bits of the
/// child's output (four words, least significant first).
pub fn streams(seq: &SeedSequence, count: usize, path: &[u64]) -> Vec<PyRandom> {
    let words = seq.child(path).generate_state(4 * count);
    words.chunks(4).map(PyRandom::from_words).collect()
}

/// `seeds.stream(seq, *path)`.
pub fn stream(seq: &SeedSequence, path: &[u64]) -> PyRandom {
    streams(seq, 1, path).pop().expect("one stream")
}

const N: usize = 624;
const M: usize = 397;

/// CPython's `random.Random`: MT19937 and the methods built on it.
///
/// Seeding is most of a short stream's cost (a game makes several), so two exact shortcuts:
/// `init_by_array` starts from the state `init_genrand(19650218)` computed once, and the state
/// is twisted one word at a time as outputs are asked for, not 624 words at once. Twisting word
/// k in place, in increasing k, reads words k + 1 and k + 397 exactly as the batch twist does
/// (the untwisted ones while k < 227, the new ones after), so the outputs are the same.
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

fn genrand_base() -> &'static [u32; N] {
    static BASE: std::sync::OnceLock<[u32; N]> = std::sync::OnceLock::new();
    BASE.get_or_init(|| {
        let mut mt = [0u32; N];
        mt[0] = 19_650_218;
        for i in 1..N {
            let prev = mt[i - 1];
            mt[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        mt
    })
}

impl PyRandom {
    /// `random.Random(n)` for the non-negative integer whose 32-bit words (least significant
    /// first) are `words`: CPython keeps the words up to the highest non-zero one (at least one).
    pub fn from_words(words: &[u32]) -> PyRandom {
        let used = words.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1);
        let mut rng = PyRandom {
            mt: *genrand_base(),
            index: N,
        };
        rng.init_by_array(&words[..used]);
        rng
    }

    fn init_by_array(&mut self, key: &[u32]) {
        let mt = &mut self.mt;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1];
            mt[i] = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1];
            mt[i] =
                (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        self.index = N;
    }

    /// Twist word k of the state (see the type's comment).
    #[inline]
    fn twist_word(&mut self, k: usize) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        let next = if k + 1 < N { k + 1 } else { 0 };
        let far = if k + M < N { k + M } else { k + M - N };
        let y = (self.mt[k] & UPPER) | (self.mt[next] & LOWER);
        self.mt[k] = self.mt[far] ^ (y >> 1) ^ ((y & 1).wrapping_neg() & MATRIX_A);
    }

    /// One 32-bit output (`genrand_uint32`).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.index = 0;
        }
        let k = self.index;
        self.twist_word(k);
        let mut y = self.mt[k];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random()`: 53 bits, in [0, 1).
    #[inline]
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for 1 <= k <= 32.
    #[inline]
    fn getrandbits(&mut self, k: u32) -> u32 {
        debug_assert!((1..=32).contains(&k));
        self.next_u32() >> (32 - k)
    }

    /// `_randbelow(n)` for 0 < n < 2^32: rejection on `n.bit_length()` bits (so `n = 1` still
    /// draws).
    #[inline]
    pub fn randbelow(&mut self, n: usize) -> usize {
        debug_assert!(n > 0 && n <= u32::MAX as usize);
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k) as usize;
            if r < n {
                return r;
            }
        }
    }

    /// `randrange(n)`.
    #[inline]
    pub fn randrange(&mut self, n: usize) -> usize {
        self.randbelow(n)
    }

    /// `randint(a, b)`, both ends included.
    #[inline]
    pub fn randint(&mut self, a: i64, b: i64) -> i64 {
        a + self.randbelow((b - a + 1) as usize) as i64
    }

    /// The index `choice(seq)` picks for a sequence of length `len`.
    #[inline]
    pub fn choice_index(&mut self, len: usize) -> usize {
        self.randbelow(len)
    }

    /// `shuffle(x)`.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i + 1);
            x.swap(i, j);
        }
    }

    /// `int(random() * 6) + 1`: the engines' die roll.
    #[inline]
    pub fn d6(&mut self) -> u8 {
        (self.random() * 6.0) as u8 + 1
    }

    /// `sample(population, k)` appended to `out` (CPython's `Random.sample`, without counts):
    /// a partial Fisher-Yates on a copy when the population is small next to the set of picks
    /// CPython would build, else draws rejected while already picked.
    pub fn sample_into<T: Copy>(&mut self, population: &[T], k: usize, out: &mut Vec<T>) {
        let n = population.len();
        assert!(k <= n, "Sample larger than population or is negative");
        let mut setsize = 21usize; // size of a small set minus size of an empty list
        if k > 5 {
            // 4 ** ceil(log(k * 3, 4)), with the float logarithm CPython takes
            let exponent = (((k * 3) as f64).ln() / 4f64.ln()).ceil() as u32;
            setsize = setsize.saturating_add(4usize.saturating_pow(exponent));
        }
        if n <= setsize {
            let mut pool = population.to_vec();
            for i in 0..k {
                let j = self.randbelow(n - i);
                out.push(pool[j]);
                pool[j] = pool[n - i - 1]; // move the non-selected item into the vacancy
            }
        } else {
            let mut selected: Vec<usize> = Vec::with_capacity(k);
            for _ in 0..k {
                let mut j = self.randbelow(n);
                while selected.contains(&j) {
                    j = self.randbelow(n);
                }
                selected.push(j);
                out.push(population[j]);
            }
        }
    }

    /// `from_words(words)` in place: a generator reused from game to game is not moved (2.5 KB).
    pub fn reseed_from_words(&mut self, words: &[u32]) {
        if let Ok(key) = <[u32; 4]>::try_from(words) {
            return PyRandom::reseed_k([self], &[key]);
        }
        let used = words.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1);
        self.mt = *genrand_base();
        self.init_by_array(&words[..used]);
    }

    /// `reseed_from_words(keys[g])` of each `rngs[g]`, seeded side by side: `init_by_array` is one
    /// serial chain per generator, so interleaving independent ones lets the processor overlap
    /// them (a game seeds several streams; seeding is most of a short game's cost).
    pub fn reseed_many(rngs: &mut [PyRandom], keys: &[[u32; 4]]) {
        assert_eq!(rngs.len(), keys.len());
        fn k<const K: usize>(rngs: &mut [PyRandom], keys: &[[u32; 4]]) {
            let rngs: &mut [PyRandom; K] = rngs.try_into().expect("K generators");
            PyRandom::reseed_k(rngs.each_mut(), keys.try_into().expect("K keys"))
        }
        match rngs.len() {
            0 => {}
            1 => k::<1>(rngs, keys),
            2 => k::<2>(rngs, keys),
            3 => k::<3>(rngs, keys),
            4 => k::<4>(rngs, keys),
            5 => k::<5>(rngs, keys),
            6 => k::<6>(rngs, keys),
            _ => {
                let (head, tail) = rngs.split_at_mut(6);
                k::<6>(head, &keys[..6]);
                PyRandom::reseed_many(tail, &keys[6..]);
            }
        }
    }

    /// A generator for each key, as `from_words(keys[g])`, seeded side by side (`reseed_many`).
    pub fn from_keys<const K: usize>(keys: &[[u32; 4]; K]) -> [PyRandom; K] {
        let mut rngs = std::array::from_fn(|_| PyRandom {
            mt: [0; N],
            index: N,
        });
        PyRandom::reseed_k(rngs.each_mut(), keys);
        rngs
    }

    /// `reseed_from_words(keys[g])` of each `rngs[g]` (generators that need not sit in one slice),
    /// seeded side by side as `reseed_many` does.
    pub fn reseed_each<const K: usize>(rngs: [&mut PyRandom; K], keys: &[[u32; 4]; K]) {
        PyRandom::reseed_k(rngs, keys)
    }

    /// `init_by_array` of K generators in lockstep, each chain's last word kept in a register.
    /// The state starts as `genrand_base()`; its words are read from there rather than copied in
    /// first (2.5 KB a generator): the first pass reads words 1..N before writing any but word
    /// i, and word 0 only as the chain's first `prev`, until its wrap overwrites word 0.
    fn reseed_k<const K: usize>(mut rngs: [&mut PyRandom; K], keys: &[[u32; 4]; K]) {
        let base = genrand_base();
        // The first pass's step t adds key[j] + j, j = t mod the key's used words (1 to 4): every
        // generator's addend repeats every 12 steps (the lcm), so one row of `add` a step serves
        // them all, and the chains' work is the same few instructions each.
        let mut add = [[0u32; K]; 12];
        for (g, key) in keys.iter().enumerate() {
            let used = key.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1);
            for (t, row) in add.iter_mut().enumerate() {
                row[g] = key[t % used].wrapping_add((t % used) as u32);
            }
        }
        let mut prev = [base[0]; K];
        // the first pass's steps at i = 1..N - 1 (step t at i = t + 1), from the base's words
        let mut i = 1;
        'first: loop {
            for add in &add {
                if i == N {
                    break 'first;
                }
                for g in 0..K {
                    let v = (base[i] ^ (prev[g] ^ (prev[g] >> 30)).wrapping_mul(1_664_525))
                        .wrapping_add(add[g]);
                    rngs[g].mt[i] = v;
                    prev[g] = v;
                }
                i += 1;
            }
        }
        // its wrap, and its last step (the N-th), at i = 1 again
        let add = &add[(N - 1) % 12];
        for g in 0..K {
            let mt = &mut rngs[g].mt;
            mt[0] = mt[N - 1];
            let v =
                (mt[1] ^ (prev[g] ^ (prev[g] >> 30)).wrapping_mul(1_664_525)).wrapping_add(add[g]);
            mt[1] = v;
            prev[g] = v;
        }
        // the second pass: N - 1 steps from i = 2, so i = 2..N - 1, its wrap, and i = 1 again
        let step = |mt: &mut [u32; N], prev: &mut u32, i: usize| {
            let v = (mt[i] ^ (*prev ^ (*prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            mt[i] = v;
            *prev = v;
        };
        for i in 2..N {
            for g in 0..K {
                step(&mut rngs[g].mt, &mut prev[g], i);
            }
        }
        for g in 0..K {
            let mt = &mut rngs[g].mt;
            mt[0] = mt[N - 1];
            step(mt, &mut prev[g], 1);
        }
        for r in rngs.iter_mut() {
            r.mt[0] = 0x8000_0000;
            r.index = N;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_words_seed_like_python_zero() {
        // random.Random(0) and the key [0]: CPython keeps one word for zero.
        let mut a = PyRandom::from_words(&[0, 0, 0, 0]);
        let mut b = PyRandom::from_words(&[0]);
        for _ in 0..10 {
            assert_eq!(a.next_u32(), b.next_u32());
        }
    }

    #[test]
    fn randbelow_one_still_draws() {
        // CPython draws one bit until it is 0: at least one draw, though the answer is known.
        let mut a = PyRandom::from_words(&[5]);
        let mut b = PyRandom::from_words(&[5]);
        assert_eq!(a.randbelow(1), 0);
        let mut draws = 1;
        while b.next_u32() >> 31 != 0 {
            draws += 1;
        }
        assert!(draws >= 1);
        assert_eq!(a.next_u32(), b.next_u32());
    }

    #[test]
    fn lazy_twist_gives_the_reference_outputs() {
        // MT19937's reference: init_by_array({0x123, 0x234, 0x345, 0x456}) starts 1067595299,
        // 955945823, 477289528 (mt19937ar.out), and the 1000th output is 3460025646.
        let mut r = PyRandom::from_words(&[0x123, 0x234, 0x345, 0x456]);
        let first: Vec<u32> = (0..3).map(|_| r.next_u32()).collect();
        assert_eq!(first, vec![1_067_595_299, 955_945_823, 477_289_528]);
        for _ in 3..999 {
            r.next_u32();
        }
        assert_eq!(r.next_u32(), 3_460_025_646);
    }

    #[test]
    fn random_is_in_unit_interval() {
        let mut r = PyRandom::from_words(&[1, 2, 3, 4]);
        for _ in 0..10_000 {
            let x = r.random();
            assert!((0.0..1.0).contains(&x));
        }
    }
}

impl PyRandom {
    /// `getrandbits(64)`: CPython fills 32-bit words least significant first.
    #[inline]
    pub fn getrandbits64(&mut self) -> u64 {
        let lo = self.next_u32() as u64;
        let hi = self.next_u32() as u64;
        lo | (hi << 32)
    }

    /// `random.Random(n)` for a 64-bit `n`.
    pub fn from_u64(n: u64) -> PyRandom {
        PyRandom::from_words(&[n as u32, (n >> 32) as u32])
    }

    /// Re-seed in place as `random.Random(n)` for a 64-bit `n` (no new 2.5 KB state).
    pub fn reseed_u64(&mut self, n: u64) {
        let words = [n as u32, (n >> 32) as u32];
        let used = if words[1] != 0 { 2 } else { 1 };
        self.mt = *genrand_base();
        self.init_by_array(&words[..used]);
    }
}

#[cfg(test)]
mod seed_many_tests {
    use super::*;

    const KEYS: [[u32; 4]; 7] = [
        [1, 2, 3, 4],
        [0, 0, 0, 0],
        [7, 0, 0, 0],
        [5, 6, 0, 0],
        [9, 9, 9, 0],
        [0, 0, 0, 8],
        [u32::MAX, 0, 1, 0],
    ];

    fn assert_seeded_as_from_words(rngs: &mut [PyRandom], keys: &[[u32; 4]]) {
        for (rng, key) in rngs.iter_mut().zip(keys) {
            let mut one = PyRandom::from_words(key);
            for _ in 0..1500 {
                assert_eq!(rng.next_u32(), one.next_u32(), "key {key:?}");
            }
        }
    }

    #[test]
    fn reseed_many_seeds_as_from_words() {
        for k in 0..=KEYS.len() {
            let mut many: Vec<PyRandom> = (0..k).map(|_| PyRandom::from_u64(0)).collect();
            PyRandom::reseed_many(&mut many, &KEYS[..k]);
            assert_seeded_as_from_words(&mut many, &KEYS[..k]);
        }
    }

    #[test]
    fn from_keys_seeds_as_from_words() {
        let keys = [KEYS[0], KEYS[2], KEYS[5]];
        assert_seeded_as_from_words(&mut PyRandom::from_keys(&keys), &keys);
    }
}
