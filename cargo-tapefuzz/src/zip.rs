//! A zip archive of stored (uncompressed) files: the `<fuzzer>_seed_corpus.zip` a fuzzing
//! service unpacks into a fuzzer's corpus. Tapes are small and already dense; storing them
//! needs no compressor, only the format's headers and a CRC-32.

/// CRC-32 (IEEE 802.3, reflected, as zip uses it) of `bytes`.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// The archive of `files` (name, bytes), in the order given. Names are stored as given
/// (UTF-8, flag bit 11); no file may be 4 GiB or more, and at most 65,535 files.
pub fn stored(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    if files.len() > usize::from(u16::MAX) {
        return Err(format!(
            "{} files: a zip without zip64 holds 65,535",
            files.len()
        ));
    }
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, bytes) in files {
        let size = u32::try_from(bytes.len()).map_err(|_| format!("{name}: 4 GiB or more"))?;
        let offset =
            u32::try_from(out.len()).map_err(|_| "the archive passed 4 GiB".to_string())?;
        let crc = crc32(bytes);
        let name_len = u16::try_from(name.len()).map_err(|_| format!("{name}: name too long"))?;
        // Local file header: version 1.0, UTF-8 names, stored, no time (1980-01-01).
        let fixed = |sig: u32, out: &mut Vec<u8>| {
            out.extend_from_slice(&sig.to_le_bytes());
        };
        fixed(0x0403_4b50, &mut out);
        out.extend_from_slice(&10u16.to_le_bytes()); // version needed
        out.extend_from_slice(&0x0800u16.to_le_bytes()); // flags: UTF-8
        out.extend_from_slice(&0u16.to_le_bytes()); // stored
        out.extend_from_slice(&0u16.to_le_bytes()); // time
        out.extend_from_slice(&0x0021u16.to_le_bytes()); // date: 1980-01-01
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&name_len.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes()); // extra
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(bytes);
        // Its central directory entry.
        fixed(0x0201_4b50, &mut central);
        central.extend_from_slice(&20u16.to_le_bytes()); // made by
        central.extend_from_slice(&10u16.to_le_bytes()); // needed
        central.extend_from_slice(&0x0800u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0x0021u16.to_le_bytes());
        central.extend_from_slice(&crc.to_le_bytes());
        central.extend_from_slice(&size.to_le_bytes());
        central.extend_from_slice(&size.to_le_bytes());
        central.extend_from_slice(&name_len.to_le_bytes());
        central.extend_from_slice(&[0; 6]); // extra, comment, disk number
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let start = u32::try_from(out.len()).map_err(|_| "the archive passed 4 GiB".to_string())?;
    let central_len = central.len() as u32;
    out.extend_from_slice(&central);
    let count = files.len() as u16;
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]); // disk numbers
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&central_len.to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // comment
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_of_the_check_string() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn unzip_reads_the_archive_back() {
        let files = vec![
            ("a".to_string(), b"first".to_vec()),
            ("b".to_string(), vec![0, 1, 2, 255]),
            ("empty".to_string(), Vec::new()),
        ];
        let dir = std::env::temp_dir().join(format!("tapefuzz-zip-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.zip"), stored(&files).unwrap()).unwrap();
        // Checked with the system's unzip where there is one (`-t`: test the archive).
        if let Ok(out) = std::process::Command::new("unzip")
            .args(["-q", "-o", "t.zip", "-d", "x"])
            .current_dir(&dir)
            .output()
        {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            for (name, bytes) in &files {
                assert_eq!(&std::fs::read(dir.join("x").join(name)).unwrap(), bytes);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
