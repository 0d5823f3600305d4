//! JUnit XML reports of CI runs (`cargo tapefuzz ci --junit`, the harnesses' `ci --junit`):
//! one test case per property, the JSON summary as its output.
//!
//! ```
//! use tapefuzz::junit::{TestCase, render};
//!
//! let xml = render("tapefuzz ci", &[TestCase {
//!     name: "x1::roundtrip".into(),
//!     seconds: 2.0,
//!     failure: Some(("ensure failed".into(), "value: [128, 128, 128]\n".into())),
//!     output: None,
//! }]);
//! assert!(xml.contains("tests=\"1\" failures=\"1\""));
//! ```

use std::fmt::Write as _;

/// One property's outcome.
#[derive(Clone, Debug, Default)]
pub struct TestCase {
    /// The property's name.
    pub name: String,
    /// Seconds it ran.
    pub seconds: f64,
    /// When it failed: a one-line message and the report's body.
    pub failure: Option<(String, String)>,
    /// Its output (the JSON summary line).
    pub output: Option<String>,
}

/// `s` as XML text or attribute value: markup escaped, line breaks kept as character
/// references (attribute values would turn them into spaces), other control characters
/// (which XML 1.0 does not allow) written as `\u{…}`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The report: one `<testsuite>` named `suite` holding `cases` (an empty list gives an
/// empty suite).
pub fn render(suite: &str, cases: &[TestCase]) -> String {
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let seconds: f64 = cases.iter().map(|c| c.seconds).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"tapefuzz\" tests=\"{}\" failures=\"{failures}\" time=\"{seconds:.3}\">",
        cases.len()
    );
    let _ = writeln!(
        x,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" time=\"{seconds:.3}\">",
        escape(suite),
        cases.len()
    );
    for c in cases {
        let _ = writeln!(
            x,
            "    <testcase classname=\"tapefuzz.ci\" name=\"{}\" time=\"{:.3}\">",
            escape(&c.name),
            c.seconds
        );
        if let Some((message, body)) = &c.failure {
            let _ = writeln!(
                x,
                "      <failure type=\"property\" message=\"{}\">{}</failure>",
                escape(message),
                escape(body)
            );
        }
        if let Some(out) = &c.output {
            let _ = writeln!(x, "      <system-out>{}</system-out>", escape(out));
        }
        x.push_str("    </testcase>\n");
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_markup_out_and_line_breaks_in() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(escape("x\ny\tz\r"), "x&#10;y&#9;z&#13;");
        assert_eq!(escape("\u{1}é"), "\\u{1}é");
    }

    #[test]
    fn counts_and_failures() {
        let x = render(
            "s",
            &[
                TestCase {
                    name: "a".into(),
                    seconds: 1.0,
                    ..TestCase::default()
                },
                TestCase {
                    name: "c<d>".into(),
                    seconds: 0.5,
                    failure: Some(("m".into(), "body".into())),
                    output: Some("{}".into()),
                },
            ],
        );
        assert!(x.contains("tests=\"2\" failures=\"1\""), "{x}");
        assert!(x.contains("name=\"c&lt;d&gt;\""));
        assert!(x.contains("<failure type=\"property\" message=\"m\">body</failure>"));
        assert!(x.contains("<system-out>{}</system-out>"));
    }
}
