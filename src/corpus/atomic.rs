//! Atomic file writes that any number of processes can make into one folder, also from
//! different PID namespaces: a temporary file with a unique random name created exclusively
//! (`O_EXCL`) and locked while it is written, fsynced, renamed over the target, and the folder
//! fsynced. A temporary file that nobody holds the lock of is a dead writer's leftover:
//! [`clean_stale_temps`] removes it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The marker in a temporary file's name (`.<target>.tmp-<random>`).
const TMP: &str = ".tmp-";

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// 64 random-enough bits for a temporary name: the clock, the process id, a counter and an
/// address of this process's stack (randomised per process), mixed. Collisions across
/// processes are still possible in principle; `O_EXCL` turns one into a retry.
pub(crate) fn random_suffix() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let local = 0u8;
    let addr = &local as *const u8 as u64;
    let mut x = nanos ^ (u64::from(std::process::id()) << 32) ^ addr.rotate_left(17);
    x ^= COUNTER
        .fetch_add(1, Ordering::Relaxed)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Creates `dir` and any missing parents, fsyncing each new folder's parent so the new
/// entries survive a crash. An existing folder is left alone; a file in the way is an error
/// naming the path.
pub fn create_dir_durably(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent()
        && !parent.as_os_str().is_empty()
    {
        create_dir_durably(parent)?;
    }
    match fs::create_dir(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => return Ok(()),
        Err(e) => return Err(with_path(e, dir)),
    }
    if let Some(parent) = dir.parent()
        && let Ok(d) = File::open(if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        })
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// `e` with `path` in its message.
pub(crate) fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Writes `bytes` to `path` so that readers see either the old file or the whole new one,
/// and concurrent writers of the same or other files in the folder never disturb each other.
/// Errors name the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_via(path, bytes, |tmp, path| fs::rename(tmp, path))
}

/// [`write_atomic`] that never replaces a file: when `path` exists (or another writer
/// publishes there first) nothing is written and the error is
/// [`io::ErrorKind::AlreadyExists`], naming the path. The whole file appears at once through
/// a hard link from the temporary file; on a file system without hard links, a check
/// before the rename stands in for it (two writers of one new name at the same instant may
/// then race there).
pub fn write_new_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_via(path, bytes, |tmp, path| match fs::hard_link(tmp, path) {
        Ok(()) => {
            let _ = fs::remove_file(tmp);
            Ok(())
        }
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::AlreadyExists | io::ErrorKind::NotFound
            ) =>
        {
            Err(e)
        }
        Err(_) if fs::symlink_metadata(path).is_ok() => {
            Err(io::Error::from(io::ErrorKind::AlreadyExists))
        }
        Err(_) => fs::rename(tmp, path),
    })
}

/// A temporary file with `bytes`, locked, fsynced, then `publish(tmp, path)`, then the folder
/// fsynced. `NotFound` from `publish` (a stale-temp cleaner took the file) starts over.
fn write_via(
    path: &Path,
    bytes: &[u8],
    publish: impl Fn(&Path, &Path) -> io::Result<()>,
) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_dir_durably(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    // A stale-temp cleaner may remove our temporary file before we lock it: then publishing
    // fails with NotFound, and we start over with a new name.
    let mut last = None;
    for _ in 0..8 {
        let tmp = dir.join(format!(".{name}{TMP}{:016x}", random_suffix()));
        let mut f = match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(with_path(e, &tmp)),
        };
        // Held until the file is closed: a cleaner that can take it knows the writer is gone.
        let _ = f.lock();
        let result = (|| {
            f.write_all(bytes)?;
            f.sync_all()?;
            publish(&tmp, path)
        })();
        match result {
            Ok(()) => {
                drop(f);
                if let Ok(d) = File::open(dir) {
                    let _ = d.sync_all();
                }
                return Ok(());
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => last = Some(e),
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                return Err(with_path(e, path));
            }
        }
    }
    Err(with_path(
        last.unwrap_or_else(|| io::Error::other("no free temporary name")),
        path,
    ))
}

/// Opens `path` with `options` only when it is a regular file: a FIFO, a socket, a device or
/// a symbolic link put under a store name is an error naming the path, and opening one never
/// blocks (no reader or writer on a FIFO) nor follows the link.
pub(crate) fn open_regular(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let f = options.open(path).map_err(|e| with_path(e, path))?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a regular file", path.display()),
        ));
    }
    Ok(f)
}

/// The bytes of `path` when it is a regular file ([`open_regular`]).
pub(crate) fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut f = open_regular(path, OpenOptions::new().read(true))?;
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut f, &mut bytes).map_err(|e| with_path(e, path))?;
    Ok(bytes)
}

/// Whether `name` is one of [`write_atomic`]'s temporary files.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.contains(TMP)
}

/// Removes the temporary files in `dir` that no live writer holds (left by a killed
/// process); returns the paths removed. A temporary file being written is locked by its
/// writer and stays.
pub fn clean_stale_temps(dir: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(read) = fs::read_dir(dir) else {
        return removed;
    };
    for item in read.flatten() {
        let name = item.file_name();
        if !is_temp_name(&name.to_string_lossy()) {
            continue;
        }
        let path = item.path();
        // Only regular files are ours: a FIFO under a temporary name is left alone.
        let Ok(f) = open_regular(&path, OpenOptions::new().write(true)) else {
            continue;
        };
        if f.try_lock().is_ok() && fs::remove_file(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_whole_files_and_leave_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("tapefuzz-atomic-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let path = dir.join("a/b/file");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(dir.join("a/b")).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        // A dead writer's leftover is cleaned up; a locked one stays.
        let stale = dir.join("a/b/.file.tmp-0000000000000001");
        fs::write(&stale, b"half").unwrap();
        let live = dir.join("a/b/.file.tmp-0000000000000002");
        let held = File::create(&live).unwrap();
        held.lock().unwrap();
        assert_eq!(clean_stale_temps(&dir.join("a/b")), vec![stale.clone()]);
        assert!(live.exists());
        drop(held);
        assert_eq!(clean_stale_temps(&dir.join("a/b")), vec![live]);
        // A file where a folder should be: an error naming the path.
        fs::write(dir.join("f"), b"x").unwrap();
        let e = write_atomic(&dir.join("f/g"), b"x").unwrap_err();
        assert!(e.to_string().contains("/f"), "{e}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_new_file_never_replaces_one() {
        let dir = std::env::temp_dir().join(format!("tapefuzz-atomic-new-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let path = dir.join("file");
        write_new_atomic(&path, b"one").unwrap();
        let e = write_new_atomic(&path, b"two").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert!(e.to_string().contains("file"), "{e}");
        assert_eq!(fs::read(&path).unwrap(), b"one");
        // No temporary file is left either way.
        let names: Vec<_> = fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        // Writers racing for one new name: exactly one wins, the others see AlreadyExists.
        let racing = dir.join("raced");
        let wins: Vec<bool> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8u8)
                .map(|i| {
                    let racing = &racing;
                    s.spawn(move || write_new_atomic(racing, &[i]).is_ok())
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(wins.iter().filter(|&&w| w).count(), 1, "{wins:?}");
        let winner = wins.iter().position(|&w| w).unwrap() as u8;
        assert_eq!(fs::read(&racing).unwrap(), vec![winner]);
        let _ = fs::remove_dir_all(&dir);
    }
}
