"""execute_and_collect(): iterator, `with` context manager, limit=, value types."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

ds = env.from_collection([5, 6, 7, 8], type_info=Types.INT())

it = ds.execute_and_collect()
print(next(it), next(it))
print(list(it))
it.close()

with ds.map(lambda x: x * 2, output_type=Types.INT()).execute_and_collect() as results:
    for r in results:
        print("got", r)

limited = ds.execute_and_collect(limit=2)
print(type(limited).__name__, limited)
print(ds.execute_and_collect("named job", limit=10))

for title, data, ti in [
    ("ROW", [(1, "x")], Types.ROW([Types.INT(), Types.STRING()])),
    ("ROW_NAMED", [(1, "x")], Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()])),
    ("TUPLE", [(1, "x")], Types.TUPLE([Types.INT(), Types.STRING()])),
    ("PICKLED", [(1, "x"), Row(a=2), {"d": [1]}], None),
    ("STRING", ["s"], Types.STRING()),
    ("DOUBLE", [1.5], Types.DOUBLE()),
    ("LONG", [2 ** 40], Types.LONG()),
    ("BOOLEAN", [True], Types.BOOLEAN()),
]:
    src = env.from_collection(data, type_info=ti) if ti is not None else env.from_collection(data)
    with src.execute_and_collect() as values:
        print(title, [(type(v).__name__, v) for v in values])

r = list(env.from_collection([(1, "x")], type_info=Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()]))
         .execute_and_collect())[0]
print(r.a, r["b"], r[0], list(r), r.as_dict(), len(r))
