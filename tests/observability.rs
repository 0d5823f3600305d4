//! Statistics, events and the observability log (Hypothesis's JSON-lines test-case format).

use std::path::PathBuf;
use tapefuzz::engine::{Config, Stop};
use tapefuzz::prelude::*;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tapefuzz-observe-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn config(seed: u64, tests: u64) -> Config {
    Config {
        seed: Some(seed),
        tests,
        seconds: None,
        stats: false,
        observability: None,
        ..Property::new("defaults").config_ref().clone()
    }
}

/// A property with events: a label per case and a number's distribution.
fn with_events(v: Vec<u8>) -> bool {
    tapefuzz::event!(if v.is_empty() { "empty" } else { "non-empty" });
    tapefuzz::event!("length", v.len());
    tapefuzz::property::event_value("first", v.first().map_or("none", |_| "some"));
    true
}

#[test]
fn statistics_tally_events_sizes_and_the_stop_reason() {
    let r = Property::new("stats_events")
        .no_corpus()
        .config(Config {
            stats: true,
            ..config(7, 500)
        })
        .run(vecs(ints::<u8>(..), 0..=6), with_events);
    assert!(r.passed(), "{r}");
    assert_eq!(r.stopped, Stop::Tests);
    let s = r.statistics.as_ref().expect("statistics on");
    let count = |label: &str| s.events.iter().find(|e| e.label == label).unwrap().cases;
    assert_eq!(count("empty") + count("non-empty"), 500);
    assert_eq!(count("length"), 500);
    let length = s.events.iter().find(|e| e.label == "length").unwrap();
    assert_eq!(length.number_range.map(|(lo, _)| lo), Some(0.0));
    assert!(length.number_range.unwrap().1 <= 6.0);
    let first = s.events.iter().find(|e| e.label == "first").unwrap();
    assert_eq!(first.texts.values().sum::<u64>(), 500);
    assert_eq!(s.choices.values().sum::<u64>(), 500);
    let (min, median, max) = s.choices_summary().unwrap();
    assert!(
        min <= median && median <= max && min >= 1,
        "{min} {median} {max}"
    );
    let text = tapefuzz::engine::render_statistics("stats_events", &r);
    assert!(text.contains("tests: 500, valid: 500 (100.0%)"), "{text}");
    assert!(
        text.contains("length: 500 test cases (100.0%); values: min 0"),
        "{text}"
    );
    // Off by default: nothing collected.
    let r = Property::new("stats_off")
        .no_corpus()
        .config(config(7, 50))
        .run(vecs(ints::<u8>(..), 0..=6), with_events);
    assert!(r.statistics.is_none());
}

#[test]
fn statistics_of_a_failing_run_and_a_time_budget() {
    let r = Property::new("stats_failing")
        .no_corpus()
        .config(Config {
            stats: true,
            ..config(8, 1000)
        })
        .run(ints::<u16>(..), |x: u16| x < 500);
    assert!(!r.passed());
    assert_eq!(r.stopped, Stop::Failure);
    let s = r.statistics.as_ref().unwrap();
    assert!(s.shrinking > std::time::Duration::ZERO);
    let text = tapefuzz::engine::render_statistics("stats_failing", &r);
    assert!(text.contains("failed; stopped by a failure"), "{text}");
    let r = Property::new("stats_time")
        .no_corpus()
        .config(Config {
            stats: true,
            seconds: Some(0.05),
            tests: u64::MAX,
            ..config(9, 0)
        })
        .run(ints::<u16>(..), |_x: u16| {});
    assert_eq!(r.stopped, Stop::Time);
}

/// Every line parses, and a test case line carries every field of Hypothesis's schema.
fn check_lines(text: &str) -> Vec<serde_json::Value> {
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    for line in &lines {
        for field in ["type", "property", "run_start"] {
            assert!(line.get(field).is_some(), "{field} missing: {line}");
        }
        match line["type"].as_str().unwrap() {
            "info" => assert!(line.get("title").is_some() && line.get("content").is_some()),
            "test_case" => {
                for field in [
                    "status",
                    "status_reason",
                    "representation",
                    "arguments",
                    "how_generated",
                    "features",
                    "coverage",
                    "timing",
                    "metadata",
                ] {
                    assert!(line.get(field).is_some(), "{field} missing: {line}");
                }
                assert!(
                    ["passed", "failed", "gave_up"].contains(&line["status"].as_str().unwrap()),
                    "{line}"
                );
                assert!(line["run_start"].is_f64(), "{line}");
                assert!(line["arguments"].is_object() && line["features"].is_object());
                assert!(line["timing"].is_object() && line["metadata"].is_object());
                assert!(line["coverage"].is_null());
            }
            other => panic!("unknown type {other}: {line}"),
        }
    }
    lines
}

#[test]
fn the_observability_log_has_one_line_per_test_case_in_hypothesis_format() {
    let d = temp_dir("log");
    let r = Property::new("observed")
        .no_corpus()
        .config(Config {
            observability: Some(d.clone()),
            ..config(10, 300)
        })
        .run(vecs(ints::<u8>(..), 0..=6), |v: Vec<u8>| {
            assume!(v.len() != 1);
            tapefuzz::event!("length", v.len());
            v.iter().all(|&x| x < 200)
        });
    assert!(!r.passed());
    let text = std::fs::read_to_string(d.join("testcases.jsonl")).unwrap();
    let lines = check_lines(&text);
    assert_eq!(lines[0]["type"], "info");
    let cases: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l["type"] == "test_case").collect();
    let generated = cases
        .iter()
        .filter(|l| l["how_generated"] == "random")
        .count() as u64;
    assert_eq!(generated, r.tests, "one line per generated test case");
    let status = |s: &str| cases.iter().filter(|l| l["status"] == s).count();
    assert!(status("passed") > 0 && status("gave_up") > 0 && status("failed") > 0);
    let failed = cases
        .iter()
        .find(|l| l["status"] == "failed" && l["how_generated"] == "random")
        .unwrap();
    assert!(
        failed["status_reason"].as_str().unwrap().contains("false"),
        "{failed}"
    );
    assert!(failed["representation"].as_str().unwrap().starts_with('['));
    assert_eq!(failed["arguments"]["value"], failed["representation"]);
    assert!(failed["features"]["length"].is_number(), "{failed}");
    assert!(failed["timing"]["execute:test"].is_number());
    assert_eq!(failed["metadata"]["seed"], 10);
    let gave_up = cases.iter().find(|l| l["status"] == "gave_up").unwrap();
    assert!(
        gave_up["status_reason"]
            .as_str()
            .unwrap()
            .contains("assume!")
    );
    // The shrinker's candidates are logged as such.
    assert!(cases.iter().any(|l| l["how_generated"] == "shrink"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn concurrent_runs_share_one_log_file() {
    let d = temp_dir("shared");
    let file = d.join("shared.jsonl");
    std::thread::scope(|s| {
        for k in 0..4 {
            let file = file.clone();
            s.spawn(move || {
                let r = Property::new(format!("shared_{k}"))
                    .no_corpus()
                    .config(Config {
                        observability: Some(file),
                        ..config(k, 500)
                    })
                    .run(strings(CharClass::ascii(), 0..=40), |_s: String| {});
                assert!(r.passed());
            });
        }
    });
    let text = std::fs::read_to_string(&file).unwrap();
    let lines = check_lines(&text);
    assert_eq!(
        lines.len(),
        4 * 501,
        "an info line and 500 test cases per run"
    );
    let _ = std::fs::remove_dir_all(&d);
}
