//! Covering-array benchmark (issue 18, paper 003): the sizes `tapefuzz::covering::build`
//! reaches on the table of ../shared/benchmarks.md ("Covering arrays"), against the best
//! known sizes and the greedy tools' published ones (AETG / IPO / PICT), IPOG alone for
//! comparison. Each row runs with seeds 1..=N and a post-optimisation budget; the table
//! reports the median and the best size, and the seconds per run.
//!
//! ```text
//! Usage: covering-bench [--seeds N] [--seconds S] [--only v^k/t,…] [--rows v^k/t,…]
//! (`--rows`: other arrays than the table's, best known unknown)
//! ```
//!
//! One JSON line per row on stdout; progress on stderr. `scripts/covering-bench` (also
//! `scripts/bench covering`) runs it and writes the table in BENCHMARKS.md.

use std::time::{Duration, Instant};
use tapefuzz::covering::{BuildOptions, Spec, build, ipog};

/// One row: t, v, k, best known, greedy tools' AETG / IPO / PICT where published.
type Row = (usize, u32, usize, usize, Option<[usize; 3]>);

/// The table of ../shared/benchmarks.md.
const ROWS: &[Row] = &[
    (2, 2, 5, 6, None),
    (2, 2, 10, 6, None),
    (2, 3, 4, 9, Some([9, 9, 9])),
    (2, 3, 13, 15, Some([15, 17, 18])),
    (2, 4, 5, 16, None),
    (2, 4, 10, 24, None),
    (2, 5, 10, 36, None),
    (2, 10, 10, 115, None),
    (2, 10, 20, 155, Some([180, 212, 210])),
    (3, 2, 6, 12, None),
    (3, 2, 12, 15, None),
    (3, 3, 6, 33, None),
    (3, 3, 10, 45, None),
    (3, 4, 10, 100, None),
    (4, 2, 10, 24, None),
    (4, 3, 6, 111, None),
];

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds: u64 = arg(&args, "--seeds").map_or(3, |s| s.parse().expect("--seeds N"));
    let seconds: f64 = arg(&args, "--seconds").map_or(20.0, |s| s.parse().expect("--seconds S"));
    let only: Option<Vec<String>> =
        arg(&args, "--only").map(|s| s.split(',').map(str::to_string).collect());
    let extra: Vec<Row> = arg(&args, "--rows")
        .map(|s| {
            s.split(',')
                .map(|r| {
                    let (vk, t) = r.split_once('/').expect("v^k/t");
                    let (v, k) = vk.split_once('^').expect("v^k");
                    (
                        t.parse().unwrap(),
                        v.parse().unwrap(),
                        k.parse().unwrap(),
                        0,
                        None,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let rows: Vec<_> = if extra.is_empty() {
        ROWS.to_vec()
    } else {
        extra
    };
    for &(t, v, k, best_known, greedy) in &rows {
        let name = format!("{v}^{k}/{t}");
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let spec = Spec::uniform(v, k, t);
        let ipog_size = ipog(&spec, 1).len();
        let mut sizes = Vec::new();
        let mut times = Vec::new();
        for seed in 1..=seeds {
            let start = Instant::now();
            let a = build(
                &spec,
                &BuildOptions {
                    seed,
                    budget: Duration::from_secs_f64(seconds),
                    ..BuildOptions::default()
                },
            )
            .expect("builds");
            let took = start.elapsed().as_secs_f64();
            assert_eq!(
                a.missing(&spec),
                0,
                "{name} seed {seed}: not a covering array"
            );
            eprintln!(
                "covering-bench: {name} seed {seed}: {} rows in {took:.1} s",
                a.len()
            );
            sizes.push(a.len());
            times.push(took);
        }
        sizes.sort();
        times.sort_by(f64::total_cmp);
        let median = sizes[(sizes.len() - 1) / 2];
        let bound = if t <= 3 {
            Some((best_known as f64 * 1.1).floor() as usize)
        } else {
            None
        };
        let pict = greedy.map(|g| g[2]);
        let pass = bound.map(|b| median <= b && pict.is_none_or(|p| median <= p));
        println!(
            "{}",
            serde_json::json!({
                "bench": "covering",
                "t": t, "v": v, "k": k,
                "median": median,
                "best": sizes[0],
                "sizes": sizes,
                "seconds_median": times[(times.len() - 1) / 2],
                "budget": seconds,
                "ipog": ipog_size,
                "best_known": best_known,
                "greedy": greedy,
                "ratio": median as f64 / best_known.max(1) as f64,
                "bound": bound,
                "pass": pass,
            })
        );
    }
}
