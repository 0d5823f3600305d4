//! A JUnit XML report of a `ci` run: one test case per property.

use std::fmt::Write as _;

/// One property's outcome.
pub struct Case {
    /// The property's name.
    pub name: String,
    /// Seconds it ran.
    pub seconds: f64,
    /// The failure report, if it failed.
    pub failure: Option<String>,
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 allows no other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The report as XML.
pub fn render(cases: &[Case]) -> String {
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let time: f64 = cases.iter().map(|c| c.seconds).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites tests=\"{}\" failures=\"{failures}\" time=\"{time:.3}\">\n  <testsuite name=\"tapefuzz\" tests=\"{}\" failures=\"{failures}\" time=\"{time:.3}\">",
        cases.len(),
        cases.len()
    );
    for c in cases {
        let _ = write!(
            x,
            "    <testcase classname=\"tapefuzz\" name=\"{}\" time=\"{:.3}\"",
            escape(&c.name),
            c.seconds
        );
        match &c.failure {
            None => x.push_str("/>\n"),
            Some(report) => {
                let first = report.lines().next().unwrap_or("failed");
                let _ = write!(
                    x,
                    ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                    escape(first),
                    escape(report)
                );
            }
        }
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_counts() {
        let x = render(&[
            Case {
                name: "a::b".into(),
                seconds: 1.0,
                failure: None,
            },
            Case {
                name: "c<d>".into(),
                seconds: 0.5,
                failure: Some("failed \"x\" & \u{1}y".into()),
            },
        ]);
        assert!(x.contains("tests=\"2\" failures=\"1\""));
        assert!(x.contains("name=\"c&lt;d&gt;\""));
        assert!(x.contains("failed &quot;x&quot; &amp; \\u{1}y"));
    }
}
