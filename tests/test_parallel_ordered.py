"""The ordering every ``--jobs`` run shares (``notation.parallel.ordered``): results come
back in the order the pieces were handed out, and no more tasks are in flight than asked;
and the cutting of files and text into pieces for the workers."""

from __future__ import annotations

import pytest

from notation.parallel.ordered import InOrder, ahead, ahead_by
from notation.parallel.pieces import byte_ranges, even_range_bytes, joined, nominal_starts, rejoined


class _Done:
    """A task already finished (what ``AsyncResult.get`` gives, without a process)."""

    def __init__(self, value: object):
        self.value = value

    def get(self) -> object:
        return self.value


class _Pool:
    """Runs each task at once and counts those handed out."""

    def __init__(self) -> None:
        self.submitted = 0

    def apply_async(self, task, args):
        self.submitted += 1
        return _Done(task(*args))


def test_in_order_gives_items_back_in_input_order_waiting_only_when_full():
    window: InOrder[str, int] = InOrder(2)
    window.put("a", _Done(1))
    assert list(window.ready()) == []  # one task in flight: not full
    window.put("here")  # work done by the parent in its turn: no task, not counted
    window.put("b", _Done(2))
    assert list(window.ready()) == [("a", 1)]  # taken until fewer than 2 are in flight
    window.put("c", _Done(3))
    assert list(window.ready()) == [("here", None), ("b", 2)]  # in order, whatever waits on nothing
    assert list(window.drain()) == [("c", 3)]
    assert window.in_flight == 0


def test_ahead_runs_at_most_so_many_beyond_the_result_taken():
    pool = _Pool()
    results = ahead(pool, lambda start, end: end - start, [(0, 3), (3, 7), (7, 8), (8, 20)], 2)
    assert pool.submitted == 0  # nothing runs before the first result is asked for
    assert next(results) == 3
    assert pool.submitted == 2
    assert list(results) == [4, 1, 12]
    assert pool.submitted == 4


def test_ahead_by_submits_through_any_submit_as_ahead_does_through_a_pool():
    """``--dask`` finds its cut points through ``ahead_by`` with a cluster's submit."""
    submitted: list[tuple] = []

    def submit(args: tuple) -> _Done:
        submitted.append(args)
        return _Done(sum(args))

    results = ahead_by(submit, [(1, 2), (3, 4), (5, 6)], 0)  # at least one in flight
    assert submitted == []
    assert next(results) == 3 and len(submitted) == 1
    assert list(results) == [7, 11]
    assert submitted == [(1, 2), (3, 4), (5, 6)]


def test_byte_ranges_cover_the_file_once():
    assert nominal_starts(0, 4) == [0]
    assert byte_ranges(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert byte_ranges(0, 4) == [(0, 0)]


@pytest.mark.parametrize(("size", "most", "jobs", "every"), [
    (17_039_250, 4 << 20, 2, 2_839_875),  # 4 MB ranges and a small fifth: six even ones, three each
    (16 << 20, 4 << 20, 2, 4 << 20),  # already four even ranges
    (16 << 20, 4 << 20, 3, (16 << 20) // 6 + 1),  # four ranges: one worker would read two
    (10, 4, 1, 4),  # one worker: at most ``most``, as few ranges as that allows (3)
    (100, 1000, 4, 25),  # a small file still gives each worker a range
    (0, 4, 2, 1),
])
def test_even_ranges_give_each_worker_as_many(size, most, jobs, every):
    assert even_range_bytes(size, most, jobs) == every
    count = len(byte_ranges(size, every))
    assert every <= most
    assert size == 0 or count % jobs == 0 or count == size  # as many each (or one byte each)


def test_even_ranges_refuse_no_size_and_no_workers():
    with pytest.raises(ValueError):
        even_range_bytes(10, 0, 2)
    with pytest.raises(ValueError):
        even_range_bytes(10, 4, 0)


def test_blocks_joined_and_sliced_keep_the_text():
    pieces = ["ab", "c", "defghijklmnop", "", "q"]
    assert list(joined(pieces, 3)) == ["abc", "defghijklmnop", "q"]
    blocks = list(rejoined(pieces, 2))
    assert "".join(blocks) == "".join(pieces)
    assert all(2 <= len(block) <= 10 for block in blocks[:-1])
