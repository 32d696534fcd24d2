"""The input layer (``notation.inputs``) on real files: every compression, by content not
name, truncation named as such, and zstd memory bounded per step (a real bomb)."""

from __future__ import annotations

import bz2
import gzip
import io
import os
import threading

import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.inputs import (
    ZSTD_FEED,
    Compression,
    CorruptInput,
    InputError,
    InputFile,
    ZstdReader,
    compression_for_name,
    read_text,
    sniff,
    split_compression_suffix,
)

TEXT = "".join(f'[Event "game {i}"]\n[Result "*"]\n\n1. e4 *\n\n' for i in range(3000)) + "caf\u00e9 \udcff end\n"
DATA = TEXT.encode("utf-8", "surrogateescape")

COMPRESSORS = {
    Compression.NONE: lambda data: data,
    Compression.GZIP: lambda data: gzip.compress(data, mtime=0),
    Compression.BZIP2: bz2.compress,
    Compression.ZSTD: lambda data: zstandard.ZstdCompressor(write_checksum=True).compress(data),
}


@pytest.mark.parametrize("compression", list(Compression))
def test_content_decides_not_the_name(tmp_path, compression):
    path = tmp_path / "misnamed.txt"  # no suffix says how it is compressed
    path.write_bytes(COMPRESSORS[compression](DATA))
    with InputFile(str(path)) as source:
        assert source.compression is compression
        assert "".join(source.blocks(chars=1000)) == TEXT  # bytes that are not UTF-8 survive
        assert source.size == path.stat().st_size


@pytest.mark.parametrize("compression", [c for c in Compression if c is not Compression.NONE])
def test_truncation_is_an_error_naming_the_file(tmp_path, compression):
    packed = COMPRESSORS[compression](DATA)
    path = tmp_path / "cut.pgn"
    path.write_bytes(packed[: len(packed) - 10])
    with pytest.raises(CorruptInput) as info:
        read_text(str(path))
    assert str(path) in str(info.value)
    assert "ends early (truncated file)" in info.value.reason


@pytest.mark.parametrize("compression", [c for c in Compression if c is not Compression.NONE])
def test_corrupt_data_is_an_error_naming_the_file(tmp_path, compression):
    packed = bytearray(COMPRESSORS[compression](DATA))
    middle = len(packed) // 2
    packed[middle:middle + 8] = bytes(b ^ 0xFF for b in packed[middle:middle + 8])
    path = tmp_path / "flipped.pgn"
    path.write_bytes(bytes(packed))
    with pytest.raises(CorruptInput) as info:
        read_text(str(path))
    assert str(path) in str(info.value)


def test_multi_member_files_are_read_whole(tmp_path):
    path = tmp_path / "many.pgn"
    path.write_bytes(gzip.compress(b"one\n") + gzip.compress(b"two\n"))
    assert read_text(str(path)) == "one\ntwo\n"
    path.write_bytes(zstandard.ZstdCompressor().compress(b"one\n") + zstandard.ZstdCompressor().compress(b"two\n"))
    assert read_text(str(path)) == "one\ntwo\n"
    path.write_bytes(bz2.compress(b"one\n") + bz2.compress(b"two\n"))
    assert read_text(str(path)) == "one\ntwo\n"


def test_open_errors(tmp_path):
    with pytest.raises(InputError, match="no-such.pgn.*No such file"):
        InputFile(str(tmp_path / "no-such.pgn"))
    with pytest.raises(InputError, match="it is a directory"):
        InputFile(str(tmp_path))


def test_a_fifo_is_read_as_it_comes(tmp_path):
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    packed = gzip.compress(DATA, mtime=0)

    def write() -> None:
        with open(fifo, "wb") as writer:
            for start in range(0, len(packed), 1000):
                writer.write(packed[start:start + 1000])

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        with InputFile(str(fifo)) as source:
            assert source.size is None
            assert "".join(source.blocks()) == TEXT
    finally:
        writer.join(timeout=60)
    assert not writer.is_alive()


def test_dev_null_is_an_empty_input():
    import stat

    if not stat.S_ISCHR(os.stat("/dev/null").st_mode):
        pytest.skip("this machine's /dev/null is not a device (something else replaced it)")
    with InputFile("/dev/null") as source:
        assert source.compression is Compression.NONE
        assert list(source.blocks()) == []


@pytest.mark.parametrize("name, stem, compression", [
    ("a.pgn.gz", "a.pgn", Compression.GZIP),
    ("a.PGN.BZ2", "a.PGN", Compression.BZIP2),
    ("a.fen.zst", "a.fen", Compression.ZSTD),
    ("a.fen.zstd", "a.fen", Compression.ZSTD),
    ("a.epd", "a.epd", Compression.NONE),
    ("a.xz", "a.xz", Compression.NONE),
])
def test_names(name, stem, compression):
    assert split_compression_suffix(name) == (stem, compression)
    assert compression_for_name(name) is compression


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.binary(max_size=8))
def test_sniff_knows_only_the_three_magics(head):
    found = sniff(head)
    expected = {b"\x1f\x8b": Compression.GZIP, b"BZh": Compression.BZIP2, b"\x28\xb5\x2f\xfd": Compression.ZSTD}
    assert found is next((kind for magic, kind in expected.items() if head.startswith(magic)), Compression.NONE)


# --- the zstd bomb ------------------------------------------------------------------------

BLOCK_MAX = 128 * 1024  # zstd's largest block, the most one block can expand to
STEP_BOUND = (ZSTD_FEED // 4 + 2) * BLOCK_MAX  # blocks of at least 4 bytes, plus one begun before


def _bomb(size: int) -> bytes:
    """A few KiB of zstd that expand to ``size`` zero bytes, written as a stream (no
    content size, so the decoder cannot know in advance)."""
    out = io.BytesIO()
    with zstandard.ZstdCompressor(level=19).stream_writer(out, closefd=False) as writer:
        chunk = bytes(1 << 20)
        for _ in range(size // len(chunk)):
            writer.write(chunk)
    return out.getvalue()


class _Recording(ZstdReader):
    """Records the size of each step's output."""

    def __init__(self, raw):
        super().__init__(raw)
        self.steps: list[int] = []

    def _decompress(self, data: bytes) -> bytes:
        out = super()._decompress(data)
        self.steps.append(len(out))
        return out


@pytest.mark.slow
def test_a_zstd_bomb_expands_a_bounded_amount_per_step():
    packed = _bomb(256 << 20)
    assert len(packed) < 64 * 1024
    reader = _Recording(io.BytesIO(packed))
    buffer = bytearray(1 << 16)
    total = 0
    while count := reader.readinto(buffer):
        total += count
    assert total == 256 << 20
    assert max(reader.steps) <= STEP_BOUND
    assert len(reader.steps) > 1  # it really took many steps
