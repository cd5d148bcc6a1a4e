"""AlternatingInputs (runtime/two_input.py) and the grouped watermark valve, driven directly."""
import pickle

from pyflink_on_spark.runtime import two_input
from pyflink_on_spark.runtime.boundary import KIND_RECORDS, KIND_WATERMARK
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK
from pyflink_on_spark.runtime.two_input import AlternatingInputs
from pyflink_on_spark.runtime.watermarks import InputWatermarkValve


def _records(values, stamps=None):
    return KIND_RECORDS, pickle.dumps((values, stamps))


def _watermark(mark):
    return KIND_WATERMARK, pickle.dumps(mark)


class Recorder:
    def __init__(self, input_of_edge, channels, work_dir=None):
        self.seen = []
        self.valve = InputWatermarkValve(channels, input_of_edge)
        self.reader = AlternatingInputs(
            input_of_edge, lambda v, ts: self.seen.append(("1", v, ts)),
            lambda v, ts: self.seen.append(("2", v, ts)), self.valve,
            lambda wm: self.seen.append(("wm", wm)), work_dir)

    def rows(self, rows):
        self.reader.add_rows([r[0] for r in rows], [r[1] for r in rows],
                             [r[2][0] for r in rows], [r[2][1] for r in rows])


def test_inputs_alternate_across_chunks_and_channels():
    rec = Recorder({0: 1, 1: 2}, [(0, 0), (0, 1), (1, 0)])
    rec.rows([(0, 0, _records(["a", "b"])), (0, 1, _records(["c"]))])
    # input 1 goes first; then its turn passes to input 2, which may still come: wait
    assert rec.seen == [("1", "a", None)]
    rec.rows([(1, 0, _records([1]))])
    rec.rows([(1, 0, _records([2, 3, 4]))])
    rec.reader.finish()
    assert [v for _, v, _ in rec.seen] == ["a", 1, "b", 2, "c", 3, 4]


def test_timestamps_and_watermarks_keep_their_place_in_their_input():
    rec = Recorder({0: 1, 1: 2}, [(0, 0), (1, 0)])
    rec.rows([(0, 0, _records(["a"], [5])), (0, 0, _watermark(5)),
              (0, 0, _records(["b"], [9]))])
    rec.rows([(1, 0, _records([1, 2], [3, 4])), (1, 0, _watermark(4))])
    rec.reader.finish()
    # the operator's watermark is the minimum over both inputs: 4 once input 2 reports it,
    # and input 1's watermark 5 only counts once input 2's is past it
    assert rec.seen == [("1", "a", 5), ("2", 1, 3), ("1", "b", 9), ("2", 2, 4), ("wm", 4)]


def test_second_input_arriving_alone_streams_through_after_an_empty_first_input():
    rec = Recorder({0: 1, 1: 2}, [(0, 0), (1, 0)])
    rec.rows([(1, 0, _records([1, 2, 3]))])
    assert [v for _, v, _ in rec.seen] == [1, 2, 3]


def test_first_input_spills_to_disk_beyond_the_threshold(tmp_path, monkeypatch):
    monkeypatch.setattr(two_input, "SPILL_THRESHOLD_BYTES", 200)
    rec = Recorder({0: 1, 1: 2}, [(0, 0), (1, 0)], work_dir=str(tmp_path))
    chunks = [list(range(i * 10, i * 10 + 10)) for i in range(6)]
    rec.rows([(0, 0, _records(chunk)) for chunk in chunks])
    queue = rec.reader._inputs[1].queue
    assert queue._file is not None and len(queue._spilled) > 0
    rec.rows([(1, 0, _records(["x"] * 60))])
    rec.reader.finish()
    first = [v for side, v, _ in rec.seen if side == "1"]
    assert first == list(range(60))
    assert [side for side, _, _ in rec.seen[:4]] == ["1", "2", "1", "2"]


def test_grouped_valve_ends_a_channel_only_when_its_own_input_moves_on():
    valve = InputWatermarkValve([(0, 0), (0, 1), (1, 0)], {0: 1, 1: 2})
    assert valve.on_channel(0, 0) is None
    assert valve.on_watermark(0, 0, 10) is None
    assert valve.on_channel(1, 0) is None          # another input: (0, 0) has not ended
    assert valve.on_watermark(1, 0, 7) is None     # (0, 1) still at MIN
    assert valve.on_channel(0, 1) is None          # (0, 0) ended, (0, 1) starts at MIN
    assert valve.on_watermark(0, 1, 20) == 7       # min(ended, 20, input 2's 7)
    assert valve.on_watermark(1, 0, MAX_WATERMARK) == 20
