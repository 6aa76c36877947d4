//! What a batch of games hands back: one column per record field, in the record's order.

/// A column's values, one per game.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    Bool(Vec<bool>),
    Int(Vec<i64>),
    /// Codes into `labels`: a text column with few values (an end reason).
    Label(Vec<u8>, &'static [&'static str]),
    /// A bool column that may be null (nobody wins together in a standard game).
    OptBool(Vec<Option<bool>>),
    Float(Vec<f64>),
    Str(Vec<String>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub name: &'static str,
    pub values: Values,
}

impl Column {
    pub fn len(&self) -> usize {
        match &self.values {
            Values::Bool(v) => v.len(),
            Values::Int(v) => v.len(),
            Values::Label(v, _) => v.len(),
            Values::OptBool(v) => v.len(),
            Values::Float(v) => v.len(),
            Values::Str(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A game the native engine could not finish (a broken invariant, never a rule outcome): the
/// runner plays that chunk again on the Python engine, which records the failure as usual.
#[derive(Clone, Debug)]
pub struct GameError {
    pub game_index: u64,
    pub message: String,
}
