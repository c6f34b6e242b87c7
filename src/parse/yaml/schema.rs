//! What a YAML scalar means under the 1.2 core schema: the kind a plain
//! scalar resolves to (`~` null, `True` a boolean, `0x1F` a number, `yes` a
//! string), and the value a key is compared by when `events` looks for a
//! repeated key (`1`, `+1` and `0x1` are one key; `1` and `'1'` are two).

use std::borrow::Cow;
use std::fmt::Write as _;

use super::events::Scalar;
use crate::input::Kind;

/// The YAML 1.2 core schema's resolution of a plain scalar (section 10.3.2).
pub fn core_schema(s: &str) -> Kind {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Kind::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return Kind::Bool,
        ".nan" | ".NaN" | ".NAN" => return Kind::Number,
        _ => {}
    }
    let b = s.as_bytes();
    // Only a scalar starting like a number can be one: most strings stop here.
    if !matches!(b[0], b'0'..=b'9' | b'-' | b'+' | b'.') {
        return Kind::String;
    }
    let digits = |t: &[u8], ok: fn(&u8) -> bool| !t.is_empty() && t.iter().all(ok);
    if let Some(rest) = s.strip_prefix("0x") {
        if digits(rest.as_bytes(), u8::is_ascii_hexdigit) {
            return Kind::Number;
        }
    }
    if let Some(rest) = s.strip_prefix("0o") {
        if digits(rest.as_bytes(), |c| (b'0'..=b'7').contains(c)) {
            return Kind::Number;
        }
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Kind::Number;
    }
    // [0-9]+ | [0-9]+ . [0-9]* | . [0-9]+, then an optional exponent.
    let u = unsigned.as_bytes();
    let whole = u.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = whole;
    let mut fraction = 0;
    if u.get(i) == Some(&b'.') {
        i += 1;
        fraction = u[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += fraction;
    }
    if whole + fraction == 0 {
        return Kind::String;
    }
    if matches!(u.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(u.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exponent = u[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exponent == 0 {
            return Kind::String;
        }
        i += exponent;
    }
    if i == u.len() {
        Kind::Number
    } else {
        Kind::String
    }
}

/// A key as compared for duplicates: its text, and whether the core schema
/// makes it a string (`1` and `'1'` differ; `y` and `'y'` do not).
pub(super) type Key<'a> = (Cow<'a, str>, bool);

/// A key as compared: a string as it is; anything else by its core-schema
/// value, spelled one way (`~`, `null` and an empty key are one null key;
/// `1`, `+1`, `01` and `0x1` one integer; `.inf` and `.Inf` one float), as
/// YAML 1.2 defines equal nodes (same tag, same canonical value). `None`
/// for a number too long to compare.
pub(super) fn key_of(key: Scalar<'_>) -> Option<Key<'_>> {
    Some(match key.kind() {
        Kind::String => (key.value, true),
        Kind::Null => (Cow::Borrowed(""), false),
        Kind::Bool => (
            Cow::Borrowed(if key.value.starts_with(['t', 'T']) {
                "true"
            } else {
                "false"
            }),
            false,
        ),
        _ if key.value.len() > LONGEST_NUMBER_KEY => return None,
        _ => (Cow::Owned(number_key(&key.value)), false),
    })
}

/// Numbers used as keys are compared by value up to this length, which is
/// also YAML's limit for an implicit key (longer ones need `? `): the
/// comparison converts bases in time quadratic in the length.
pub(super) const LONGEST_NUMBER_KEY: usize = 1024;

/// The canonical spelling of a core-schema number (`core_schema` said it is
/// one): `i` and the magnitude in hexadecimal for an integer of any size
/// and base (`-` for a negative one, none for zero); `f` and the bits of
/// the `f64` for a float (0.0 for -0.0, one NaN). An integer and a float
/// are different tags, so never one key.
fn number_key(s: &str) -> String {
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    let negative = s.starts_with('-');
    let (radix, digits) = if let Some(hex) = s.strip_prefix("0x") {
        (16, hex)
    } else if let Some(octal) = s.strip_prefix("0o") {
        (8, octal)
    } else {
        (10, unsigned)
    };
    if digits.bytes().all(|c| char::from(c).is_digit(radix)) {
        // Little-endian 32-bit limbs, one multiply-add per digit.
        let mut limbs: Vec<u32> = Vec::new();
        for c in digits.chars() {
            let mut carry = u64::from(c.to_digit(radix).unwrap_or(0));
            for limb in &mut limbs {
                let v = u64::from(*limb) * u64::from(radix) + carry;
                *limb = v as u32;
                carry = v >> 32;
            }
            if carry > 0 {
                limbs.push(carry as u32);
            }
        }
        let mut out = String::from(if negative && !limbs.is_empty() { "i-" } else { "i" });
        for (i, limb) in limbs.iter().rev().enumerate() {
            let _ = if i == 0 {
                write!(out, "{limb:x}")
            } else {
                write!(out, "{limb:08x}")
            };
        }
        return out;
    }
    let value = match unsigned {
        ".inf" | ".Inf" | ".INF" => f64::INFINITY,
        ".nan" | ".NaN" | ".NAN" => f64::NAN,
        _ => match unsigned.parse::<f64>() {
            Ok(v) => v,
            // Not reached for what the core schema calls a number; the
            // text itself keeps such a key distinct from every float.
            Err(_) => return format!("s{s}"),
        },
    };
    let value = if negative { -value } else { value };
    let canonical = if value.is_nan() {
        f64::NAN
    } else if value == 0.0 {
        0.0
    } else {
        value
    };
    format!("f{:x}", canonical.to_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_resolve_by_the_core_schema() {
        for (s, kind) in [
            ("", Kind::Null),
            ("~", Kind::Null),
            ("NULL", Kind::Null),
            ("True", Kind::Bool),
            ("yes", Kind::String),
            ("y", Kind::String),
            ("260", Kind::Number),
            ("-1.5e3", Kind::Number),
            (".5", Kind::Number),
            ("1.", Kind::Number),
            ("0x1F", Kind::Number),
            ("0o17", Kind::Number),
            ("0o18", Kind::String),
            ("-.inf", Kind::Number),
            (".NaN", Kind::Number),
            ("1.0.0", Kind::String),
            ("1e", Kind::String),
            ("+", Kind::String),
            (".", Kind::String),
            ("12:30", Kind::String),
        ] {
            assert_eq!(core_schema(s), kind, "{s:?}");
        }
    }
}
