"""The ordering every ``--jobs`` run shares (``notation.parallel.ordered``): results come
back in the order the pieces were handed out, and no more tasks are in flight than asked;
and the cutting of files and text into pieces for the workers."""

from __future__ import annotations

import itertools

import pytest

from notation.parallel.ordered import InOrder, ahead, ahead_by
from notation.parallel.pieces import byte_ranges, joined, nominal_starts, rejoined, tapered_ranges


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


@pytest.mark.parametrize(("size", "most", "jobs", "lengths"), [
    # The bench's 17 MB database for two processes: 4 MB, then a quarter of what is left,
    # down to 512 KB; the last range what remains.
    (17_039_250, 4 << 20, 2, [4_194_304, 3_211_236, 2_408_427, 1_806_320, 1_354_740, 1_016_055, 762_042,
                              571_531, 524_288, 524_288, 524_288, 141_731]),
    # Four processes: 4 MB while an eighth of what is left is more (40, 36, 32 MB left).
    (40 << 20, 4 << 20, 4, [4 << 20] * 3 + [3_670_016, 3_211_264, 2_809_856, 2_458_624, 2_151_296, 1_882_384,
                                            1_647_086, 1_441_200, 1_261_050, 1_103_419, 965_491, 844_805,
                                            739_204, 646_804, 565_953] + [524_288] * 7 + [291_660]),
    (10, 4, 1, [4, 3, 1, 1, 1]),  # one process: half of what is left
    (100, 1000, 4, [100]),  # smaller than the floor: one range
    (0, 4, 2, [0]),
])
def test_tapered_ranges_shrink_towards_the_end(size, most, jobs, lengths):
    found = tapered_ranges(size, most, jobs)
    assert [end - start for start, end in found] == lengths
    assert found[0][0] == 0 and found[-1][1] == size
    assert all(end == start for (_, end), (start, _) in itertools.pairwise(found))  # each byte once
    assert all(length <= most for length in lengths)
    assert lengths[:-1] == sorted(lengths[:-1], reverse=True)


def test_tapered_ranges_refuse_no_size_and_no_workers():
    with pytest.raises(ValueError):
        tapered_ranges(10, 0, 2)
    with pytest.raises(ValueError):
        tapered_ranges(10, 4, 0)


def test_blocks_joined_and_sliced_keep_the_text():
    pieces = ["ab", "c", "defghijklmnop", "", "q"]
    assert list(joined(pieces, 3)) == ["abc", "defghijklmnop", "q"]
    blocks = list(rejoined(pieces, 2))
    assert "".join(blocks) == "".join(pieces)
    assert all(2 <= len(block) <= 10 for block in blocks[:-1])
