//! A request handler that misbehaves on a large request: the planted bugs kill the process
//! (an abort, a stack overflow, an allocation of 64 TiB) or never return. For testing that a
//! failure of that kind keeps its input, is replayed first by the next run, shrinks (in
//! processes of their own) and is reported — from the CLI and in CI.

use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::property::property;

/// A request size at or above this triggers a planted bug.
pub const LARGE: u16 = 1000;

/// The planted bugs, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// `std::process::abort()`.
    Abort,
    /// Unbounded recursion: the thread's stack overflows.
    StackOverflow,
    /// A 64 TiB allocation: the allocator fails and the process aborts.
    Oom,
    /// A loop that never ends.
    Hang,
}

impl Bug {
    fn named(name: &str) -> Option<Bug> {
        match name {
            "abort" => Some(Bug::Abort),
            "stack_overflow" => Some(Bug::StackOverflow),
            "oom" => Some(Bug::Oom),
            "hang" => Some(Bug::Hang),
            _ => None,
        }
    }
}

/// Recurses until the stack overflows (the planted bug: it never returns).
#[inline(never)]
#[allow(unconditional_recursion)]
fn recurse(depth: u64) -> u64 {
    let frame = [depth as u8; 1024];
    std::hint::black_box(&frame);
    recurse(depth + 1).wrapping_add(std::hint::black_box(frame[0]) as u64)
}

/// Handles the requests: the sum of their sizes, with a buffer of at most 64 bytes each. With
/// `bug`, a request of [`LARGE`] or more misbehaves.
pub fn handle(sizes: &[u16], bug: Option<Bug>) -> u64 {
    let mut total = 0u64;
    for &size in sizes {
        if size >= LARGE {
            match bug {
                Some(Bug::Abort) => std::process::abort(),
                Some(Bug::StackOverflow) => total += recurse(0),
                Some(Bug::Oom) => {
                    let v: Vec<u8> = Vec::with_capacity(1 << 46);
                    total += std::hint::black_box(v).capacity() as u64;
                }
                Some(Bug::Hang) => loop {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                },
                None => {}
            }
        }
        let buffer = vec![0u8; usize::from(size).min(64)];
        total += std::hint::black_box(buffer).len() as u64 + u64::from(size);
    }
    total
}

/// The target's test: the handler returns the sum of the sizes plus the buffers.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = bug.and_then(Bug::named);
    Box::new(property(
        vecs(ints::<u16>(..), 0..=8),
        move |v: Vec<u16>| {
            let want: u64 = v.iter().map(|&s| u64::from(s) + u64::from(s.min(64))).sum();
            ensure_eq!(handle(&v, bug), want);
            Ok(())
        },
    ))
}
