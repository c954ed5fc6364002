//! Text syntax: expressions, types and literals in LLVM's spellings, location
//! descriptions, and the s-expressions of context files and corpus scripts.
//!
//! Every parse error is a `malformed` diagnostic that says where: line,
//! column, and a caret under the place.

pub mod expr;
pub mod lex;
pub mod location;
pub mod sexpr;

pub use expr::{is_type_name, parse_expr, parse_type, parse_typed_literal};
pub use location::parse_location;

/// Splits `s` at its top-level commas: outside strings, parentheses,
/// braces, brackets, and angle brackets that open a vector or packed-struct
/// type or a vector constant (`<4 x i8>`, `<{ i8, i32 }>`, `<i8 1, i8 2>`).
/// Any other `<`, and a `>` followed by `>` or `=`, is an operator (`<<`,
/// `<`, `>=` in the constant expressions of rules) and nests nothing. Each
/// part is trimmed; a trailing empty part is dropped.
pub fn split_top_level(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    // Does the `<` at `i` open `<N x T>`, `<{ ... }>` or `<T value, ...>`?
    let opens = |i: usize| {
        let rest: String = chars[i + 1..].iter().take(48).collect();
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let type_word = word.len() > 1
            && word.starts_with('i')
            && word[1..].chars().all(|d| d.is_ascii_digit())
            || matches!(
                word.as_str(),
                "half" | "bfloat" | "float" | "double" | "fp128" | "x86_fp80" | "ppc_fp128" | "ptr"
            );
        let mut words = rest.split_whitespace();
        type_word
            || rest.trim_start().starts_with('{')
            || words
                .next()
                .is_some_and(|w| w.chars().all(|d| d.is_ascii_digit()))
                && words.next() == Some("x")
    };
    let (mut out, mut cur) = (Vec::new(), String::new());
    let (mut depth, mut angles, mut in_str) = (0i32, 0i32, false);
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '"' => in_str = !in_str,
            _ if in_str => {}
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            '<' if opens(i) => angles += 1,
            '>' if angles > 0 && !matches!(chars.get(i + 1), Some('>' | '=')) => angles -= 1,
            ',' if depth == 0 && angles == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_top_level;

    #[test]
    fn commas_inside_types_calls_and_strings_do_not_split() {
        assert_eq!(
            split_top_level(r#"metadata !1, <4 x i8> <i8 1, i8 2>, { i8, i32 } x, "a,b", f(1, 2)"#),
            [
                "metadata !1",
                "<4 x i8> <i8 1, i8 2>",
                "{ i8, i32 } x",
                r#""a,b""#,
                "f(1, 2)"
            ]
        );
        assert_eq!(
            split_top_level("<{ i8, <2 x i32> }> %p, i32 1"),
            ["<{ i8, <2 x i32> }> %p", "i32 1"]
        );
    }

    #[test]
    fn comparison_and_shift_operators_nest_nothing() {
        assert_eq!(
            split_top_level("C < 8, C >= 2, C >> 1, C << 3, C<2, <4 x T> %l"),
            ["C < 8", "C >= 2", "C >> 1", "C << 3", "C<2", "<4 x T> %l"]
        );
        assert_eq!(split_top_level("a, , b,"), ["a", "", "b"]);
    }
}
