//! The watchdog: ends the process when a test case runs over the timeout. A test case that
//! never returns cannot be stopped from outside its thread; the flight record already holds
//! its input, marked hung here, so the next run replays it (in a process of its own, killed
//! after the timeout), shrinks it and reports it — as libFuzzer does with its
//! `timeout-` artifacts.

use crate::corpus::FlightView;
use crate::reporter::Reporting;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The exit status of a process the watchdog ended (libFuzzer's timeout exit code).
pub const HANG_EXIT_CODE: i32 = 70;

/// How far past a run's time budget one test case may run before the command-line tools
/// (`cargo tapefuzz run` / `ci`, the harnesses' CLI) call it hung when no timeout was set
/// ([`budget_timeout`]).
pub const BUDGET_MARGIN: Duration = Duration::from_secs(10);

/// The per-test-case timeout a command-line run of `seconds` gets when the user set none
/// (`TAPEFUZZ_TIMEOUT_MS`): the budget plus [`BUDGET_MARGIN`]. A test case that outlives its
/// run's whole budget by that much is a hang, and the run ends within the budget, the margin
/// and the [`GRACE`] instead of never. `cargo test` keeps no timeout unless one is set.
pub fn budget_timeout(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX / 2) + BUDGET_MARGIN
}

/// How long past the timeout a test case may still end the process itself before it is
/// called hung: a process that is already dying (an allocation failure printing a
/// backtrace, an abort on a loaded machine) is a crash, not a timeout.
pub const GRACE: Duration = Duration::from_secs(1);

/// A running watchdog; dropping it stops it.
pub(super) struct Watchdog {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Watches `view`: when one test case has been running for longer than `limit` (and
    /// [`GRACE`] more), marks it
    /// hung, says so (to `reporter`) and ends the process with [`HANG_EXIT_CODE`].
    pub(super) fn start(
        view: FlightView,
        limit: Duration,
        record: PathBuf,
        reporter: Reporting,
    ) -> Watchdog {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let poll = (limit / 4).clamp(Duration::from_millis(1), Duration::from_millis(50));
        let handle = std::thread::Builder::new()
            .name("tapefuzz-watchdog".into())
            .spawn(move || {
                let mut seen: Option<(u64, Instant)> = None;
                while !stopped.load(Ordering::Relaxed) {
                    std::thread::sleep(poll);
                    match (view.running(), seen) {
                        (None, _) => seen = None,
                        (Some(n), Some((m, since))) if n == m => {
                            if since.elapsed() > limit + GRACE {
                                view.mark_hung();
                                let note = if view.shrinking() {
                                    format!(
                                        "shrink candidate {n} ran over the timeout ({limit:?}); ending the run. The failure being shrunk is kept in {}: the next run shrinks it again, each candidate in a process of its own",
                                        record.display()
                                    )
                                } else {
                                    format!(
                                        "test case {n} ran over the timeout ({limit:?}); ending the run. Its input is kept in {}: the next run replays it first, shrinks it and reports it",
                                        record.display()
                                    )
                                };
                                reporter.note(&note);
                                std::process::exit(HANG_EXIT_CODE);
                            }
                        }
                        (Some(n), _) => seen = Some((n, Instant::now())),
                    }
                }
            })
            .ok();
        Watchdog { stop, handle }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
