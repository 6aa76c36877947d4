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

impl GameError {
    /// The error of game `game_index` from its message (for `map_err`).
    pub fn at(game_index: u64) -> impl FnOnce(String) -> GameError {
        move |message| GameError {
            game_index,
            message,
        }
    }
}

/// The kind of a record column, as a batch declares it.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Bool,
    OptBool,
    Int,
    Float,
    Str,
    Label(&'static [&'static str]),
}

/// The columns every record starts with (`registry.REQUIRED_RECORD`): won (`won` is `Bool`, or
/// `OptBool` where nobody may win), score, length, end_reason.
pub fn head(won: Kind, end_reasons: &'static [&'static str]) -> [(&'static str, Kind); 4] {
    [
        ("won", won),
        ("score", Kind::Int),
        ("length", Kind::Int),
        ("end_reason", Kind::Label(end_reasons)),
    ]
}

/// The fields every record starts with, in `head`'s order: `Won` is `bool`, or `Option<bool>`
/// where nobody may win.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Head<Won> {
    pub won: Won,
    pub score: i64,
    pub length: i64,
    pub end_reason: u8,
}

/// A `won` value: `Rows::head` pushes it as its kind of column.
pub trait Won: Copy {
    fn push(self, rows: &mut Rows) -> &mut Rows;
}

impl Won for bool {
    #[inline]
    fn push(self, rows: &mut Rows) -> &mut Rows {
        rows.bool(self)
    }
}

impl Won for Option<bool> {
    #[inline]
    fn push(self, rows: &mut Rows) -> &mut Rows {
        rows.opt_bool(self)
    }
}

/// Integer columns of these names.
pub fn ints(names: &'static [&'static str]) -> impl Iterator<Item = (&'static str, Kind)> {
    names.iter().map(|&name| (name, Kind::Int))
}

/// `Rows`' push of each plain kind: `name(v)` into the next column, a `Values::Variant` one (else
/// a bug in the game's batch, named).
macro_rules! push_as {
    ($($name:ident($t:ty) => $variant:ident, $kind:literal;)*) => {$(
        pub fn $name(&mut self, v: $t) -> &mut Rows {
            let column = self.column();
            match &mut column.values {
                Values::$variant(c) => c.push(v),
                _ => panic!("column {} is not a {} column", column.name, $kind),
            }
            self
        }
    )*};
}

/// A batch's columns, filled a record at a time: each record pushes its fields in the order the
/// columns were declared, then `end`s. A push of the wrong kind, or a record of too few or too
/// many fields, is a bug in the game's batch: it panics naming the column.
pub struct Rows {
    columns: Vec<Column>,
    next: usize,
}

impl Rows {
    pub fn new(fields: impl IntoIterator<Item = (&'static str, Kind)>, capacity: usize) -> Rows {
        let columns = fields
            .into_iter()
            .map(|(name, kind)| Column {
                name,
                values: match kind {
                    Kind::Bool => Values::Bool(Vec::with_capacity(capacity)),
                    Kind::OptBool => Values::OptBool(Vec::with_capacity(capacity)),
                    Kind::Int => Values::Int(Vec::with_capacity(capacity)),
                    Kind::Float => Values::Float(Vec::with_capacity(capacity)),
                    Kind::Str => Values::Str(Vec::with_capacity(capacity)),
                    Kind::Label(labels) => Values::Label(Vec::with_capacity(capacity), labels),
                },
            })
            .collect();
        Rows { columns, next: 0 }
    }

    #[inline]
    fn column(&mut self) -> &mut Column {
        let k = self.next;
        self.next += 1;
        match self.columns.get_mut(k) {
            Some(column) => column,
            None => panic!("a record pushes more than its {k} declared columns"),
        }
    }

    push_as! {
        bool(bool) => Bool, "bool";
        opt_bool(Option<bool>) => OptBool, "optional bool";
        int(i64) => Int, "int";
        float(f64) => Float, "float";
        str(String) => Str, "text";
    }

    /// A record's head, into `head`'s columns.
    pub fn head<W: Won>(&mut self, head: &Head<W>) -> &mut Rows {
        head.won
            .push(self)
            .int(head.score)
            .int(head.length)
            .label(head.end_reason)
    }

    pub fn ints(&mut self, vs: &[i64]) -> &mut Rows {
        for &v in vs {
            self.int(v);
        }
        self
    }

    /// A code into the column's labels.
    pub fn label(&mut self, code: u8) -> &mut Rows {
        let column = self.column();
        match &mut column.values {
            Values::Label(c, labels) if (code as usize) < labels.len() => c.push(code),
            _ => panic!(
                "column {} is not a label column with a label {code}",
                column.name
            ),
        }
        self
    }

    /// The record is complete.
    pub fn end(&mut self) {
        assert_eq!(
            self.next,
            self.columns.len(),
            "a record pushes {} of its {} columns",
            self.next,
            self.columns.len()
        );
        self.next = 0;
    }

    pub fn into_columns(self) -> Vec<Column> {
        assert_eq!(self.next, 0, "the last record was not ended");
        self.columns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_fill_columns_in_declared_order() {
        let mut rows = Rows::new(
            head(Kind::OptBool, &["a", "b"])
                .into_iter()
                .chain(ints(&["x"])),
            2,
        );
        rows.opt_bool(None).int(3).int(9).label(1).int(-1).end();
        let head = Head {
            won: Some(true),
            score: 4,
            length: 8,
            end_reason: 0,
        };
        rows.head(&head).int(5).end();
        let cols = rows.into_columns();
        let names: Vec<&str> = cols.iter().map(|c| c.name).collect();
        assert_eq!(names, ["won", "score", "length", "end_reason", "x"]);
        assert_eq!(cols[0].values, Values::OptBool(vec![None, Some(true)]));
        assert_eq!(cols[3].values, Values::Label(vec![1, 0], &["a", "b"]));
        assert_eq!(cols[4].values, Values::Int(vec![-1, 5]));
    }

    #[test]
    fn an_empty_batch_still_names_its_columns() {
        let cols = Rows::new(ints(&["x", "y"]), 0).into_columns();
        assert_eq!(cols.len(), 2);
        assert!(cols.iter().all(Column::is_empty));
    }

    #[test]
    #[should_panic(expected = "column x is not a bool column")]
    fn a_push_of_the_wrong_kind_names_the_column() {
        Rows::new(ints(&["x"]), 1).bool(true);
    }

    #[test]
    #[should_panic(expected = "a record pushes 1 of its 2 columns")]
    fn a_short_record_is_refused() {
        Rows::new(ints(&["x", "y"]), 1).int(1).end();
    }
}
