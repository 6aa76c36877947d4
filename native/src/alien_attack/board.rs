//! The board's tables flattened for the hot loops: each per-space list is one slice of a shared
//! vector (`Lists`), spaces and cities as small integers.

use super::{Components, BORDER_CARDS};

/// Per-space lists of at most `MAX_LIST` items, each in a fixed row: no pointer to follow.
#[derive(Clone, Debug)]
pub struct Lists<T> {
    rows: Vec<([T; MAX_LIST], u8)>,
}

/// A hex space has six neighbours, six lines, six corners (cities).
pub const MAX_LIST: usize = 6;

impl<T: Copy + Default> Lists<T> {
    fn new<U: Copy>(lists: &[Vec<U>], f: impl Fn(U) -> T) -> Result<Lists<T>, String> {
        let mut rows = Vec::with_capacity(lists.len());
        for list in lists {
            if list.len() > MAX_LIST {
                return Err(format!("a space with {} entries in one list", list.len()));
            }
            let mut row = [T::default(); MAX_LIST];
            for (slot, &x) in row.iter_mut().zip(list) {
                *slot = f(x);
            }
            rows.push((row, list.len() as u8));
        }
        Ok(Lists { rows })
    }

    #[inline]
    pub fn get(&self, s: usize) -> &[T] {
        let (row, len) = &self.rows[s];
        &row[..*len as usize]
    }
}

#[derive(Clone, Debug)]
pub struct Board {
    pub n: usize,
    pub neighbors: Lists<u8>,
    pub lines: Lists<(u8, u8)>,
    pub opposite: Lists<(u8, u8)>,
    pub herd_nbrs: Lists<u8>,
    pub space_cities: Lists<u8>,
    pub park: Vec<bool>,
    pub is_herd: Vec<bool>,
    pub border_mask: Vec<i64>,
    /// Bit c set when the space is on the border of Border card c (`BORDER_CARDS` order).
    pub card_border: Vec<u8>,
    pub city_value: Vec<i64>,
    pub discs: i64,
    pub park_markers: i64,
    pub city_tables: Vec<Vec<i64>>,
    pub border_tables: Vec<Vec<i64>>,
    pub parks_table: Vec<i64>,
    pub bases_table: Vec<i64>,
    pub territory_table: Vec<i64>,
    pub protection_points: i64,
    pub protection_value1: i64,
    pub protection_herds: i64,
    pub protection_borders: i64,
}

/// `components.points`: a mission table's points for a count; past the end, the last entry.
#[inline]
pub fn points(table: &[i64], count: i64) -> i64 {
    let c = count as usize;
    if c < table.len() {
        table[c]
    } else {
        table[table.len() - 1]
    }
}

impl Board {
    pub fn new(c: &Components) -> Result<Board, String> {
        let n = c.n;
        if n == 0 || n > 254 {
            return Err(format!("{n} spaces (at most 254)"));
        }
        if c.city_value.len() > 255 {
            return Err("more than 255 cities".into());
        }
        let per_space = [
            c.neighbors.len(),
            c.lines.len(),
            c.opposite.len(),
            c.park.len(),
            c.herd_region.len(),
            c.herd_nbrs.len(),
            c.border_mask.len(),
            c.space_cities.len(),
        ];
        if per_space.iter().any(|&len| len != n + 1) {
            return Err("a per-space table is not n + 1 long".into());
        }
        if c.borders.len() != BORDER_CARDS.len()
            || c.border_tables.len() != BORDER_CARDS.len()
            || c.city_tables.len() != 4
        {
            return Err("the mission tables do not match the cards".into());
        }
        let tables = [&c.parks_table, &c.bases_table, &c.territory_table];
        if tables
            .iter()
            .chain(c.city_tables.iter().collect::<Vec<_>>().iter())
            .chain(c.border_tables.iter().collect::<Vec<_>>().iter())
            .any(|t| t.is_empty())
        {
            return Err("an empty mission table".into());
        }
        let mut card_border = vec![0u8; n + 1];
        for (bit, spaces) in c.borders.iter().enumerate() {
            for &s in spaces {
                card_border[s] |= 1 << bit;
            }
        }
        Ok(Board {
            n,
            neighbors: Lists::new(&c.neighbors, |s| s as u8)?,
            lines: Lists::new(&c.lines, |(a, b)| (a as u8, b as u8))?,
            opposite: Lists::new(&c.opposite, |(a, b)| (a as u8, b as u8))?,
            herd_nbrs: Lists::new(&c.herd_nbrs, |s| s as u8)?,
            space_cities: Lists::new(&c.space_cities, |ci| ci as u8)?,
            park: c.park.clone(),
            is_herd: c.herd_region.iter().map(|&r| r >= 0).collect(),
            border_mask: c.border_mask.clone(),
            card_border,
            city_value: c.city_value.clone(),
            discs: c.discs,
            park_markers: c.park_markers,
            city_tables: c.city_tables.clone(),
            border_tables: c.border_tables.clone(),
            parks_table: c.parks_table.clone(),
            bases_table: c.bases_table.clone(),
            territory_table: c.territory_table.clone(),
            protection_points: c.protection_points,
            protection_value1: c.protection_value1,
            protection_herds: c.protection_herds,
            protection_borders: c.protection_borders,
        })
    }

    /// The City card table of card value `card` (2..5).
    #[inline]
    pub fn city_table(&self, card: i64) -> &[i64] {
        &self.city_tables[(card - 2) as usize]
    }
}
