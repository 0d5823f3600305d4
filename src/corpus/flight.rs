//! The flight record: the test case in flight, on disk before it runs, so that one that kills
//! the process — an abort, a stack overflow, an allocation failure, a hang ended by the
//! watchdog — is found by the next run, which replays it first (as libFuzzer keeps its
//! crash- and timeout- artifacts).
//!
//! A run maps a small file `<corpora>/.inflight/<property>.<random>.flight` into memory (shared with the
//! page cache, so its contents outlive the process) and holds a lock on it. Before each test
//! case the loop writes what it is: a random test case's seed (three stores), or, for
//! searches that steer their choices, each index as the source chooses it ([`Trace`]). No
//! system call per test case. The file holds the header and a few hundred slots at first; the
//! first test case that traces more indices, or a shrink of a longer tape, writes the rest
//! (the whole record is 512 KB of real blocks, which cost a short property run most of its
//! time). At the end of the run the file is removed. A file whose lock
//! nobody holds belongs to a process that died: [`Flight::collect`] reads it.
//!
//! Layout (little-endian `u64` words): magic, state (0 idle, 1 running, 2 hung), kind (1 a
//! seed, 2 traced indices), seed, test number, count of indices, then the indices.

use super::atomic::{create_dir_durably, open_regular, with_path};
use crate::tape::{Trace, TraceRoom};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const MAGIC: u64 = u64::from_le_bytes(*b"TFFLIGHT");
const HEADER: usize = 8;
/// Indices a record holds (the default size budget of a test case).
pub const FLIGHT_SLOTS: usize = crate::tape::DEFAULT_MAX_CHOICES;
const WORDS: usize = HEADER + FLIGHT_SLOTS;
/// The words a record's file holds until a test case traces its indices or a shrink
/// begins: a random test case needs the header only. Writing the whole record (512 KB of
/// real blocks) cost most of a short property run's time under `cargo test`.
const FIRST_WORDS: usize = 512;

const STATE: usize = 1;
const KIND: usize = 2;
const SEED: usize = 3;
const TEST: usize = 4;
const COUNT: usize = 5;

/// Kinds: a random test case's seed; traced indices; a failing tape being shrunk.
const SEEDED: u64 = 1;
const TRACED: u64 = 2;
const SHRINKING: u64 = 3;

const IDLE: u64 = 0;
const RUNNING: u64 = 1;
const HUNG: u64 = 2;

/// What a dead run's record says about the test case it was running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crashed {
    /// The record's file (removed once its failure is settled).
    pub path: PathBuf,
    /// The test case: a random test case's seed, or the indices it drew.
    pub input: CrashedInput,
    /// The watchdog ended it: it ran over the timeout.
    pub hung: bool,
    /// Its number in the run.
    pub test: u64,
    /// The run was shrinking this failing test case ([`Flight::begin_shrink`]) when it died:
    /// one of the shrink candidates killed it or hung, not this test case itself.
    pub shrinking: bool,
}

/// The input of a crashed test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CrashedInput {
    /// A `RandomSource` with this seed.
    Seed(u64),
    /// These indices, replayed (the simplest choices past their end).
    Indices(Vec<u64>),
}

/// A run's flight record (see the module docs). Unix only; elsewhere [`Flight::create`]
/// fails and runs go on without one.
pub struct Flight {
    path: PathBuf,
    /// Mapped over [`WORDS`] words.
    map: *mut u64,
    backing: Backing,
}

/// The record's file, and how many words of the mapping it backs (a store past the file's
/// end would be a SIGBUS): the slots of a [`Trace`] grow into it.
struct Backing {
    file: File,
    words: usize,
    /// Writing the rest failed once (a full disk): not tried again.
    failed: bool,
}

// SAFETY: `grow` returns slots the file backs, from the first slot, within the mapping of
// `WORDS` words that the flight keeps for as long as a trace borrows it.
unsafe impl TraceRoom for Backing {
    fn grow(&mut self, wanted: usize) -> usize {
        if HEADER + wanted.min(FLIGHT_SLOTS) > self.words && !self.failed {
            self.write_rest();
        }
        self.words - HEADER
    }
}

impl Backing {
    /// Writes the rest of the record, whole (real zero blocks, as [`Flight::create`]
    /// writes; a record grows at most once). Where that fails (a full disk) the record
    /// keeps the slots it has, and a longer test case keeps only its first indices.
    #[cold]
    #[inline(never)]
    fn write_rest(&mut self) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileExt;
            let extra = vec![0u8; (WORDS - self.words) * 8];
            match self.file.write_all_at(&extra, (self.words * 8) as u64) {
                Ok(()) => self.words = WORDS,
                Err(_) => self.failed = true,
            }
        }
    }
}

// The mapping is owned by the flight; the watchdog reads it through `Flight::view`.
unsafe impl Send for Flight {}

/// A read-only view of a flight's state for a watchdog thread.
#[derive(Clone, Copy, Debug)]
pub struct FlightView {
    map: *const u64,
}

unsafe impl Send for FlightView {}
unsafe impl Sync for FlightView {}

impl FlightView {
    fn word(&self, i: usize) -> &AtomicU64 {
        // SAFETY: the mapping is WORDS words long, aligned, and outlives every view (the
        // watchdog is joined before the flight is dropped).
        unsafe { AtomicU64::from_ptr(self.map.add(i) as *mut u64) }
    }

    /// The test case running (its number), if one is.
    pub fn running(&self) -> Option<u64> {
        (self.word(STATE).load(Ordering::Acquire) == RUNNING)
            .then(|| self.word(TEST).load(Ordering::Relaxed))
    }

    /// Whether the record holds a failure being shrunk ([`Flight::begin_shrink`]): the
    /// running test case is then one of its shrink candidates.
    pub fn shrinking(&self) -> bool {
        self.word(KIND).load(Ordering::Relaxed) == SHRINKING
    }

    /// Marks the running test case as hung (the watchdog, before it ends the process).
    pub fn mark_hung(&self) {
        self.word(STATE).store(HUNG, Ordering::Release);
    }
}

impl Flight {
    /// Creates a record for the property `name` in `dir` (made if missing, with a
    /// `.gitignore` that keeps it out of git), locked by this process. Errors name the path.
    #[cfg(unix)]
    pub fn create(dir: &Path, name: &str) -> io::Result<Flight> {
        create_dir_durably(dir)?;
        let ignore = dir.join(".gitignore");
        if !ignore.exists() {
            let _ = super::write_atomic(&ignore, b"*\n");
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let mut n = crate::tape::Rng::derive(nanos, u64::from(std::process::id()));
        let (path, file) = loop {
            let path = dir.join(format!("{name}.{n:016x}.flight"));
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(f) => break (path, f),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => n = n.wrapping_add(1),
                Err(e) => return Err(with_path(e, &path)),
            }
        };
        let setup = (|| {
            file.lock()?;
            // Real blocks, not a sparse file: on a full disk the first store into a sparse
            // mapping is a SIGBUS; a write fails with ENOSPC here, and the run goes on
            // without a record. The rest of the record is written when first needed
            // (`Backing::grow`).
            std::io::Write::write_all(&mut &file, &[0u8; FIRST_WORDS * 8])?;
            use std::os::fd::AsRawFd;
            // SAFETY: a shared read-write mapping of the whole record, which this struct
            // owns and unmaps on drop; only the words the file backs are touched.
            let map = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    WORDS * 8,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED,
                    file.as_raw_fd(),
                    0,
                )
            };
            if map == libc::MAP_FAILED {
                return Err(io::Error::last_os_error());
            }
            Ok(map as *mut u64)
        })();
        match setup {
            Ok(map) => {
                let f = Flight {
                    path,
                    map,
                    backing: Backing {
                        file,
                        words: FIRST_WORDS,
                        failed: false,
                    },
                };
                f.view().word(0).store(MAGIC, Ordering::Relaxed);
                Ok(f)
            }
            Err(e) => {
                let _ = fs::remove_file(&path);
                Err(with_path(e, &path))
            }
        }
    }

    /// Not on this platform.
    #[cfg(not(unix))]
    pub fn create(dir: &Path, name: &str) -> io::Result<Flight> {
        let _ = name;
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("{}: no flight records on this platform", dir.display()),
        ))
    }

    /// The record's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A view for a watchdog thread.
    pub fn view(&self) -> FlightView {
        FlightView { map: self.map }
    }

    /// Test case `test` is a random one with this seed.
    #[inline]
    pub fn begin_seed(&mut self, test: u64, seed: u64) {
        let v = self.view();
        v.word(KIND).store(SEEDED, Ordering::Relaxed);
        v.word(SEED).store(seed, Ordering::Relaxed);
        v.word(TEST).store(test, Ordering::Relaxed);
        v.word(STATE).store(RUNNING, Ordering::Release);
    }

    /// Test case `test` traces its indices: the trace to hand its tape. The record's file
    /// holds a few hundred slots at first; a test case that draws more writes the rest of
    /// it as it goes (see [`TraceRoom`]).
    #[inline]
    pub fn begin_trace(&mut self, test: u64) -> Trace<'_> {
        let v = self.view();
        v.word(KIND).store(TRACED, Ordering::Relaxed);
        v.word(TEST).store(test, Ordering::Relaxed);
        v.word(STATE).store(RUNNING, Ordering::Release);
        let backed = self.backing.words - HEADER;
        // SAFETY: the header words and the slots are disjoint parts of the mapping, borrowed
        // for as long as `self` is; the file backs the first `backed` slots, and the backing
        // vouches for those it grows.
        unsafe {
            let count = &mut *self.map.add(COUNT);
            Trace::growing(self.map.add(HEADER), backed, count, &mut self.backing)
        }
    }

    /// The run starts shrinking the failing test case of `indices`: the record holds it
    /// (as the first [`FLIGHT_SLOTS`] indices; 504 if the record could not grow, on a full
    /// disk) while each candidate runs, so that a candidate
    /// that kills the process or hangs leaves the failure for the next run, marked
    /// [`Crashed::shrinking`]. Each candidate is announced with [`Flight::candidate`].
    pub fn begin_shrink(&mut self, indices: &[u64]) {
        let room = self.backing.grow(indices.len());
        let v = self.view();
        v.word(STATE).store(IDLE, Ordering::Release);
        v.word(KIND).store(SHRINKING, Ordering::Relaxed);
        let n = indices.len().min(room);
        for (i, &x) in indices[..n].iter().enumerate() {
            v.word(HEADER + i).store(x, Ordering::Relaxed);
        }
        v.word(COUNT).store(n as u64, Ordering::Relaxed);
    }

    /// Shrink candidate `k` starts (after [`Flight::begin_shrink`]): the watchdog times each
    /// candidate on its own.
    #[inline]
    pub fn candidate(&mut self, k: u64) {
        let v = self.view();
        v.word(TEST).store(k, Ordering::Relaxed);
        v.word(STATE).store(RUNNING, Ordering::Release);
    }

    /// The test case ended (however: a failure it returned is the loop's to handle).
    #[inline]
    pub fn end(&mut self) {
        self.view().word(STATE).store(IDLE, Ordering::Release);
    }

    /// The records in `dir` of the property `name` left by runs that died (nobody holds
    /// their lock), in name order. A record of a run that died between test cases holds
    /// nothing and is removed; one that cannot be read is left alone.
    pub fn collect(dir: &Path, name: &str) -> Vec<Crashed> {
        let mut out = Vec::new();
        let Ok(read) = fs::read_dir(dir) else {
            return out;
        };
        let mut paths: Vec<PathBuf> = read
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "flight")
                    && p.file_stem()
                        .and_then(|s| s.to_str())
                        .and_then(|s| s.rsplit_once('.'))
                        .is_some_and(|(prop, _)| prop == name)
            })
            .collect();
        paths.sort();
        for path in paths {
            let Ok(mut f) = open_regular(&path, OpenOptions::new().read(true).write(true)) else {
                continue; // not a regular file (a FIFO blocks a plain open): not a record
            };
            if f.try_lock().is_err() {
                continue; // a live run's
            }
            let mut bytes = Vec::new();
            if f.read_to_end(&mut bytes).is_err() || bytes.len() < HEADER * 8 {
                continue;
            }
            let word = |i: usize| {
                bytes
                    .get(i * 8..i * 8 + 8)
                    .map_or(0, |b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            };
            if word(0) != MAGIC {
                continue;
            }
            let state = word(STATE);
            if state == IDLE {
                let _ = fs::remove_file(&path);
                continue;
            }
            let input = match word(KIND) {
                SEEDED => CrashedInput::Seed(word(SEED)),
                _ => {
                    let n = (word(COUNT) as usize).min(FLIGHT_SLOTS);
                    CrashedInput::Indices((0..n).map(|i| word(HEADER + i)).collect())
                }
            };
            out.push(Crashed {
                path,
                input,
                hung: state == HUNG,
                test: word(TEST),
                shrinking: word(KIND) == SHRINKING,
            });
        }
        out
    }
}

impl Drop for Flight {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: the mapping made in `create`, unmapped once.
        unsafe {
            libc::munmap(self.map as *mut libc::c_void, WORDS * 8);
        }
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_left_running_is_collected_and_an_idle_or_live_one_is_not() {
        let dir = std::env::temp_dir().join(format!("tapefuzz-flight-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut f = Flight::create(&dir, "p").unwrap();
        f.begin_seed(7, 1234);
        assert_eq!(f.view().running(), Some(7));
        // Live: locked by us.
        assert!(Flight::collect(&dir, "p").is_empty());
        {
            let mut t = f.begin_trace(8);
            t.push(3);
            t.push(5);
        }
        // As if the process died now: copy the file and read the copy.
        let copy = dir.join("p.copy.flight");
        fs::copy(f.path(), &copy).unwrap();
        assert!(Flight::collect(&dir, "q").is_empty(), "another property's");
        let found = Flight::collect(&dir, "p");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].input, CrashedInput::Indices(vec![3, 5]));
        assert_eq!((found[0].test, found[0].hung), (8, false));
        f.end();
        fs::copy(f.path(), &copy).unwrap();
        assert!(
            Flight::collect(&dir, "p").is_empty(),
            "idle: nothing to replay"
        );
        assert!(!copy.exists(), "an idle dead record is removed");
        let path = f.path().to_path_buf();
        drop(f);
        assert!(!path.exists(), "removed at the end of the run");
        assert_eq!(
            fs::read_to_string(dir.join(".gitignore")).unwrap(),
            "*\n",
            "kept out of git"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_long_trace_grows_the_record_and_is_collected_whole() {
        let dir = std::env::temp_dir().join(format!("tapefuzz-flight-long-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut f = Flight::create(&dir, "p").unwrap();
        let small = fs::metadata(f.path()).unwrap().len();
        assert_eq!(
            small,
            (FIRST_WORDS * 8) as u64,
            "a random run writes the header only"
        );
        let n = 3 * FIRST_WORDS as u64;
        {
            let mut t = f.begin_trace(1);
            for i in 0..n {
                t.push(i);
            }
        }
        assert_eq!(fs::metadata(f.path()).unwrap().len(), (WORDS * 8) as u64);
        let copy = dir.join("p.copy.flight");
        fs::copy(f.path(), &copy).unwrap();
        let found = Flight::collect(&dir, "p");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].input, CrashedInput::Indices((0..n).collect()));
        drop(f);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_record_that_cannot_grow_keeps_its_slots_and_stops_trying() {
        let dir = std::env::temp_dir().join(format!("tapefuzz-flight-ro-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ro.flight");
        fs::write(&path, [0u8; FIRST_WORDS * 8]).unwrap();
        // Read-only: every write fails, as on a full disk.
        let mut b = Backing {
            file: File::open(&path).unwrap(),
            words: FIRST_WORDS,
            failed: false,
        };
        assert_eq!(b.grow(FIRST_WORDS), FIRST_WORDS - HEADER);
        assert!(b.failed);
        assert_eq!(b.grow(FLIGHT_SLOTS), FIRST_WORDS - HEADER);
        assert_eq!(fs::metadata(&path).unwrap().len(), (FIRST_WORDS * 8) as u64);
        let _ = fs::remove_dir_all(&dir);
    }
}
