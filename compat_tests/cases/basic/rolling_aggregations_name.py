"""sum / min / max / min_by / max_by by field NAME on ROW_NAMED records."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

row_type = Types.ROW_NAMED(["user", "clicks", "score"], [Types.STRING(), Types.INT(), Types.DOUBLE()])
data = [("ann", 1, 1.5), ("bob", 2, 0.5), ("ann", 3, 0.25), ("bob", 4, 2.0), ("ann", 2, 3.0)]

for agg, field in [("sum", "clicks"), ("sum", "score"), ("min", "score"), ("max", "clicks"),
                   ("min_by", "score"), ("max_by", "clicks"), ("max_by", "score")]:
    print("-- %s(%r)" % (agg, field), flush=True)
    keyed = env.from_collection(data, type_info=row_type).key_by(lambda r: r.user, key_type=Types.STRING())
    getattr(keyed, agg)(field).print()
    env.execute(agg + " " + field)

print("-- sum by name, then map reading fields by name", flush=True)
(env.from_collection(data, type_info=row_type)
    .key_by(lambda r: r["user"], key_type=Types.STRING())
    .sum("clicks")
    .map(lambda r: "%s has %d clicks" % (r.user, r.clicks), output_type=Types.STRING())
    .print())
env.execute("sum then map")
