#!/usr/bin/env python3
"""Writes bugs/<name>/crash.bin: one known failing input per bug, built by hand from the
advisory or issue (see each bug's src/lib.rs). Run from anywhere; overwrites the files."""
import os, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))

def chunk(ty, data):
    return struct.pack(">I", len(data)) + ty + data + struct.pack(">I", zlib.crc32(ty + data))

def png(chunks):
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunk(t, d) for t, d in chunks)

CRASHES = {
    # 1x1, 8-bit, colour type 3 (paletted), no PLTE chunk; one row (filter 0, index 0).
    "png_palette": png([
        (b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 3, 0, 0, 0)),
        (b"IDAT", zlib.compress(b"\x00\x00")),
        (b"IEND", b""),
    ]),
    # PNG signature, then a chunk that announces 4096 bytes and ends at once.
    "exif_png_hang": b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 4096) + b"IHDR",
    # UTCTime (tag 0x17) of 13 bytes: '1', then U+00E9 (two bytes above 0x7f), then ASCII.
    "asn1_utctime": b"\x17\x0d" + b"1" + "\u00e9".encode() + b"0101000000Z",
    # 100,000 nested start-group tags of unknown field 2 (0x13 = 2 << 3 | 3).
    "protobuf_groups": b"\x13" * 100_000,
    # Field 1 (bytes), length 2^32 - 1 (a u32 varint): 2.5.0 reserves 4 GiB for a 6-byte input
    # (fails under a 2 GiB address-space or malloc limit, as --check and libFuzzer set).
    "protobuf_alloc": b"\x0a\xff\xff\xff\xff\x0f",
    # FF 00 at the start of the file (the loop reads the whole buffer from 0, not the tag),
    # then an ID3v2.3 header with the unsynchronisation flag (0x80), tag size 5 (+10).
    "mp3_id3": b"\xff\x00" + b"ID3\x03\x00\x80\x00\x00\x00\x05" + b"\x00" * 20,
    # 100,000 nested flow sequences.
    "yaml_nesting": b"[" * 100_000,
    # A hash with a multi-byte character where the size digit is read.
    "blurhash_utf8": "\u00e9AAAAAA".encode(),
    # A backslash followed by a multi-byte character.
    "rulex_parse": "\\\u00e9".encode(),
    # The symbol of rustc-demangle issue #9.
    "demangle_overflow": b"_ZN2222222222222222222222EE",
}

if __name__ == "__main__":
    for name, data in CRASHES.items():
        path = os.path.join(HERE, "bugs", name, "crash.bin")
        with open(path, "wb") as f:
            f.write(data)
        print(f"{path}: {len(data)} bytes")
