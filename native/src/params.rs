//! A strategy's parameters as Python hands them: every value a number (a boolean as 0 or 1),
//! looked up by name.

/// A parameter's type, from the number Python hands.
pub trait ParamValue {
    fn from_number(v: f64) -> Self;
}

impl ParamValue for f64 {
    fn from_number(v: f64) -> f64 {
        v
    }
}

impl ParamValue for i64 {
    fn from_number(v: f64) -> i64 {
        v as i64
    }
}

impl ParamValue for i32 {
    fn from_number(v: f64) -> i32 {
        v as i32
    }
}

impl ParamValue for bool {
    fn from_number(v: f64) -> bool {
        v != 0.0
    }
}

/// `with_params!(numbers, param, [field, ...])`: `numbers` with each listed field set to the
/// value `param` (a `Fn(&str) -> Option<f64>`) gives for the field's name, where it gives one.
/// The strategies' parameters are named as the fields that hold them.
macro_rules! with_params {
    ($numbers:expr, $param:expr, [$($field:ident),+ $(,)?]) => {{
        let mut numbers = $numbers;
        let param = &$param;
        $(
            if let Some(v) = param(stringify!($field)) {
                numbers.$field = $crate::params::ParamValue::from_number(v);
            }
        )+
        numbers
    }};
}

pub(crate) use with_params;

/// `named_params!(Type, [field, ...])`: `Type::NAMES`, the listed fields' names (the strategy's
/// parameters), and `Type::read(param)`, `Type::default()` with each given one set (`with_params!`).
macro_rules! named_params {
    ($type:ty, [$($field:ident),+ $(,)?]) => {
        impl $type {
            /// The parameters' names, as `read` takes them.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($field)),+];

            /// The defaults, with each parameter `param` gives (by name) in its place.
            pub fn read(param: impl Fn(&str) -> Option<f64>) -> $type {
                $crate::params::with_params!(<$type>::default(), param, [$($field),+])
            }
        }
    };
}

pub(crate) use named_params;

#[cfg(test)]
mod tests {
    #[derive(Debug, PartialEq)]
    struct Numbers {
        weight: f64,
        count: i64,
        flag: bool,
    }

    #[test]
    fn given_fields_replace_the_defaults() {
        let given = |key: &str| match key {
            "count" => Some(3.9),
            "flag" => Some(0.0),
            _ => None,
        };
        let defaults = Numbers {
            weight: 1.5,
            count: 1,
            flag: true,
        };
        let read = with_params!(defaults, given, [weight, count, flag]);
        assert_eq!(
            read,
            Numbers {
                weight: 1.5,
                count: 3,
                flag: false,
            }
        );
    }
}
