//! A packet handler behind a four-record handshake: a chain of comparisons against constants.
//!
//! This is the target greybox mode exists for. A packet unlocks its admin commands only when
//! its first four records carry the tags `T`, `A`, `P`, `E`, checked one at a time. A random
//! packet passes all four with probability 2⁻³² (each tag is a uniform byte), so blackbox
//! testing essentially never reaches the code behind them; but each passing comparison is a
//! new branch, so coverage feedback keeps the tape that passes one more and mutates it until
//! it passes the next — a few hundred thousand test cases at most.

use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::property::property;

/// One record of a packet: a tag byte and a 16-bit value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// What the record is.
    pub tag: u8,
    /// Its payload.
    pub value: u16,
}

/// The tags a packet must open with, one record each, to unlock the admin commands.
pub const HANDSHAKE: [u8; 4] = *b"TAPE";

/// What [`handle`] made of a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    /// Handshake records matched, 0 to 4 (4: unlocked).
    pub stage: u8,
    /// Records accepted: the matched handshake records, and every record after a complete
    /// handshake.
    pub accepted: usize,
    /// [`checksum`] of the accepted records, computed as they are accepted.
    pub checksum: u32,
}

/// Checksum of one more record.
fn step(sum: u32, r: &Record) -> u32 {
    (sum.rotate_left(5) ^ ((r.tag as u32) << 16) ^ r.value as u32).wrapping_mul(0x9e37_79b1)
}

/// The checksum of a run of records (the property's reference).
pub fn checksum(records: &[Record]) -> u32 {
    records.iter().fold(0x811c_9dc5, step)
}

impl Reply {
    fn accept(&mut self, r: &Record) {
        self.accepted += 1;
        self.checksum = step(self.checksum, r);
    }

    fn matched(&mut self, r: &Record) {
        self.stage += 1;
        self.accept(r);
    }
}

/// Handles a packet: matches the handshake, then accepts every further record as an admin
/// command. With `bug` (planted bug `magic`), an unlocked packet is reported as one record
/// longer than it is (the admin loop counts a terminator the packet does not have).
pub fn handle(records: &[Record], bug: bool) -> Reply {
    let mut reply = Reply {
        stage: 0,
        accepted: 0,
        checksum: checksum(&[]),
    };
    // One branch per handshake record, each with its own effect, rather than a loop over
    // HANDSHAKE: the optimizer may fold a loop of byte compares into one 32-bit compare or a
    // select, and then passing one more comparison would not be new coverage.
    let Some(r) = records.first() else {
        return reply;
    };
    if r.tag != HANDSHAKE[0] {
        return reply;
    }
    reply.matched(r);
    let Some(r) = records.get(1) else {
        return reply;
    };
    if r.tag != HANDSHAKE[1] {
        return reply;
    }
    reply.matched(r);
    let Some(r) = records.get(2) else {
        return reply;
    };
    if r.tag != HANDSHAKE[2] {
        return reply;
    }
    reply.matched(r);
    let Some(r) = records.get(3) else {
        return reply;
    };
    if r.tag != HANDSHAKE[3] {
        return reply;
    }
    reply.matched(r);
    for r in &records[4..] {
        reply.accept(r);
    }
    if bug {
        reply.accepted += 1;
    }
    reply
}

/// Packets of up to 16 records, each a uniform tag byte and a 16-bit value. Simplest: the
/// empty packet.
pub fn generator() -> impl Gen<Value = Vec<Record>> {
    let record = (ints::<u8>(..), ints::<u16>(..)).map(|(tag, value)| Record { tag, value });
    vecs(record, 0..=16)
}

/// The property: the handler accepts no more records than the packet has, and its checksum
/// is that of the records it accepted.
pub fn check(records: &[Record], bug: bool) -> Result<(), Fail> {
    let reply = handle(records, bug);
    ensure!(
        reply.accepted <= records.len(),
        "accepted {} records of {}",
        reply.accepted,
        records.len()
    );
    ensure_eq!(reply.checksum, checksum(&records[..reply.accepted]));
    Ok(())
}

/// The target's test.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = bug == Some("magic");
    Box::new(property(generator(), move |records: Vec<Record>| {
        check(&records, bug)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(tags: &[u8]) -> Vec<Record> {
        tags.iter().map(|&tag| Record { tag, value: 7 }).collect()
    }

    #[test]
    fn the_handshake_unlocks_one_record_at_a_time() {
        for (tags, stage) in [
            (&b""[..], 0),
            (b"X", 0),
            (b"T", 1),
            (b"TX", 1),
            (b"TA", 2),
            (b"TAP", 3),
            (b"TAPX", 3),
            (b"TAPE", 4),
            (b"TAPE++", 4),
        ] {
            let p = packet(tags);
            let r = handle(&p, false);
            assert_eq!(r.stage, stage, "{tags:?}");
            let want = if stage == 4 { p.len() } else { stage as usize };
            assert_eq!(r.accepted, want, "{tags:?}");
            assert!(check(&p, false).is_ok());
            // The bug needs the whole handshake.
            assert_eq!(check(&p, true).is_ok(), stage < 4, "{tags:?}");
        }
    }

    #[test]
    fn random_packets_pass_with_and_without_the_bug() {
        for bug in [None, Some("magic")] {
            let report = Property::new("magic_random")
                .no_corpus()
                .tests(5_000)
                .seed(1)
                .run_test(test(bug).as_ref());
            assert!(report.passed(), "{report}");
        }
    }
}
