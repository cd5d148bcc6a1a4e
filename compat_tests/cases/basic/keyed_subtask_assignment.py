"""Which subtask a key reaches (Flink's key groups) for INT, STRING and pickled keys."""
from pyflink.common import Types
from pyflink.datastream import MapFunction, StreamExecutionEnvironment


class TagSubtask(MapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        return "%s@%d" % (value, self.index)


env = StreamExecutionEnvironment.get_execution_environment()
for p in [2, 3]:
    env.set_parallelism(p)
    nums = env.from_collection(list(range(10)), type_info=Types.INT())
    cases = [
        ("INT key", nums.key_by(lambda x: x, key_type=Types.INT())),
        ("LONG key", nums.key_by(lambda x: x * 1000, key_type=Types.LONG())),
        ("STRING key", nums.key_by(lambda x: "k" + str(x), key_type=Types.STRING())),
        ("pickled int key", nums.key_by(lambda x: x)),
        ("pickled str key", nums.key_by(lambda x: "k" + str(x))),
        ("pickled tuple key", nums.key_by(lambda x: (x % 3, "t"))),
    ]
    for label, keyed in cases:
        tagged = keyed.map(TagSubtask(), output_type=Types.STRING()).execute_and_collect()
        print("p=%d %s:" % (p, label), " ".join(sorted(tagged, key=lambda s: int(s.split("@")[0]))))
