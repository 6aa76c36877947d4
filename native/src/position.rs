//! What every game's `Position` (its forward model as one owned value, for Python) shares: the
//! components it plays on, kept for the process, and the search it last ran, kept while its
//! numbers stay the same.

use std::any::Any;
use std::sync::Mutex;

/// The tables `make` builds from `comp`, once per component set and kind of table, kept for the
/// process: a position outlives any call, and its engine borrows them.
pub fn lasting<C, T>(
    comp: &C,
    make: impl FnOnce(&C) -> Result<T, String>,
) -> Result<&'static T, String>
where
    C: PartialEq + Clone + Send + Sync + 'static,
    T: Send + Sync + 'static,
{
    static BUILT: Mutex<Vec<&'static (dyn Any + Send + Sync)>> = Mutex::new(Vec::new());
    let mut built = BUILT
        .lock()
        .map_err(|_| "the tables' lock was poisoned".to_string())?;
    let mut kept = built.iter().filter_map(|b| b.downcast_ref::<(C, T)>());
    if let Some((_, t)) = kept.find(|(c, _)| c == comp) {
        return Ok(t);
    }
    let entry: &'static (C, T) = Box::leak(Box::new((comp.clone(), make(comp)?)));
    built.push(entry);
    Ok(&entry.1)
}

/// `lasting`'s tables when they are the components themselves: a copy.
pub fn copied<C: Clone>(comp: &C) -> Result<C, String> {
    Ok(comp.clone())
}

/// The searcher in `slot` if it was made with these numbers, else a new one by `make` (kept in
/// `slot` for the next call).
pub fn kept<'s, P: PartialEq + Copy, S>(
    slot: &'s mut Option<(P, Box<S>)>,
    p: &P,
    make: impl FnOnce(&P) -> S,
) -> &'s mut S {
    if slot.as_ref().is_none_or(|(q, _)| q != p) {
        *slot = Some((*p, Box::new(make(p))));
    }
    &mut slot.as_mut().expect("a searcher").1
}

/// `mcts`'s answer at a position, refused once the game is over: `choose` asks the searcher kept
/// in `slot` for the numbers `p` (`kept`; `make` makes one).
pub fn search<P: PartialEq + Copy, S, A>(
    over: bool,
    slot: &mut Option<(P, Box<S>)>,
    p: &P,
    make: impl FnOnce(&P) -> S,
    choose: impl FnOnce(&mut S) -> Result<A, String>,
) -> Result<A, String> {
    if over {
        return Err("the game is over".into());
    }
    choose(kept(slot, p, make))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_built_once_per_component_set_and_kind() {
        let a = lasting(&1u8, |c| Ok(format!("t{c}"))).unwrap();
        let again = lasting(&1u8, |_| Err::<String, _>("not built twice".into())).unwrap();
        assert!(std::ptr::eq(a, again));
        assert_eq!(lasting(&2u8, |c| Ok(format!("t{c}"))).unwrap(), "t2");
        assert_eq!(
            *lasting(&1u8, |&c| Ok(u32::from(c) + 10)).unwrap(),
            11,
            "another kind"
        );
        assert!(lasting(&3u8, |_| Err::<String, _>("bad".into())).is_err());
    }

    #[test]
    fn a_searcher_is_kept_while_its_numbers_stay() {
        let mut slot: Option<(u32, Box<Vec<u32>>)> = None;
        kept(&mut slot, &1, |&p| vec![p]).push(9);
        assert_eq!(*kept(&mut slot, &1, |&p| vec![p]), vec![1, 9]);
        assert_eq!(*kept(&mut slot, &2, |&p| vec![p]), vec![2]);
        let asked = |s: &mut Vec<u32>| Ok(s.len());
        assert_eq!(search(false, &mut slot, &2, |&p| vec![p], asked), Ok(1));
        assert!(search(true, &mut slot, &2, |&p| vec![p], asked).is_err());
    }
}
