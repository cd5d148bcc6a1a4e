"""A Python aggregate function (udaf) and a table aggregate function (udtaf) in a
TableEnvironment in STREAMING mode (no DataStream environment), their accumulators holding a
ListView / MapView (declared DataTypes.LIST_VIEW / MAP_VIEW, or an ARRAY for a ListView):
bundles of 3 rows (python.fn-execution.bundle.size, bundle.time set long), so a group seen in
an earlier bundle updates (-U / +U) or retracts its emitted rows (-D). Through
execute().print(), an SQL query's collect() with the row kinds, to_pandas() and an INSERT
into a print table; the views' own methods (a MapView outside an accumulator: get of a
missing key raises KeyError)."""
from pyflink.common import Row
from pyflink.table import (DataTypes, EnvironmentSettings, ListView, MapView,
                           TableEnvironment)
from pyflink.table.expressions import col
from pyflink.table.udf import AggregateFunction, TableAggregateFunction, udaf, udtaf

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.get_config().set("python.fn-execution.bundle.size", "3")
t_env.get_config().set("python.fn-execution.bundle.time", "600000")


class Concat(AggregateFunction):
    def create_accumulator(self):
        return Row(ListView(), '')

    def accumulate(self, acc, s, sep):
        acc[1] = sep
        acc[0].add(s)

    def get_value(self, acc):
        return acc[1].join(acc[0])

    def get_accumulator_type(self):
        return DataTypes.ROW([DataTypes.FIELD("f0", DataTypes.LIST_VIEW(DataTypes.STRING())),
                              DataTypes.FIELD("f1", DataTypes.STRING())])

    def get_result_type(self):
        return DataTypes.STRING()


class ArrayConcat(Concat):
    def get_accumulator_type(self):
        return DataTypes.ROW([DataTypes.FIELD("f0", DataTypes.ARRAY(DataTypes.STRING())),
                              DataTypes.FIELD("f1", DataTypes.STRING())])


class CountDistinct(AggregateFunction):
    def create_accumulator(self):
        return Row(MapView(), 0)

    def accumulate(self, acc, v):
        seen = acc[0].get(v)    # a declared MAP_VIEW field: None for a new key
        if seen is None:
            acc[1] += 1
        acc[0].put(v, (seen or 0) + 1)

    def get_value(self, acc):
        return acc[1]

    def get_accumulator_type(self):
        return DataTypes.ROW([
            DataTypes.FIELD("f0", DataTypes.MAP_VIEW(DataTypes.STRING(), DataTypes.BIGINT())),
            DataTypes.FIELD("f1", DataTypes.BIGINT())])

    def get_result_type(self):
        return DataTypes.BIGINT()


class TopWords(TableAggregateFunction):
    def create_accumulator(self):
        return [MapView()]

    def accumulate(self, acc, w):
        m = acc[0]
        m.put(w, (m.get(w) if m.contains(w) else 0) + 1)

    def emit_value(self, acc):
        for k, v in sorted(acc[0].items(), key=lambda kv: (-kv[1], kv[0]))[:2]:
            yield Row(k, v)

    def get_accumulator_type(self):
        return DataTypes.ROW([
            DataTypes.FIELD("f0", DataTypes.MAP_VIEW(DataTypes.STRING(), DataTypes.BIGINT()))])

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("w", DataTypes.STRING()),
                              DataTypes.FIELD("n", DataTypes.BIGINT())])


t = t_env.from_elements([(1, 'a', ','), (2, 'b', ','), (1, 'c', ';'), (1, 'a', ';'),
                         (2, 'b', '-'), (3, 'x', '+'), (1, 'd', '/')], ['k', 's', 'sep'])
concat, distinct = udaf(Concat()), udaf(CountDistinct())
t.group_by(col('k')).select(col('k'), concat(col('s'), col('sep')).alias('c'),
                            distinct(col('s')).alias('d')).execute().print()
t.group_by(col('k')).flat_aggregate(udtaf(TopWords())(col('s'))).select(col('*')) \
    .execute().print()

t_env.create_temporary_function("concat_s", udaf(ArrayConcat()))
t_env.create_temporary_view("src", t)
with t_env.execute_sql("SELECT k, concat_s(s, sep) AS c FROM src GROUP BY k").collect() as rs:
    for r in rs:
        print(r.get_row_kind(), r)
print(t.group_by(col('k')).select(col('k'), distinct(col('s')).alias('d')).to_pandas())

t_env.execute_sql("CREATE TABLE out_t (k BIGINT, c STRING) WITH ('connector' = 'print')")
t_env.execute_sql("INSERT INTO out_t SELECT k, concat_s(s, sep) FROM src GROUP BY k").wait()

lv = ListView()
lv.add(1)
lv.add_all([2, 3])
print(list(lv), lv.get(), lv == lv, [v * 2 for v in lv])
lv.clear()
print(list(lv))
mv = MapView()
mv.put('x', 1)
mv['y'] = 2
mv.put_all({'z': 3})
mv.remove('x')
print(list(mv), sorted(mv.items()), list(mv.keys()), list(mv.values()), 'y' in mv,
      mv.contains('x'), mv.is_empty(), mv['z'])
try:
    mv.get('x')
except KeyError as e:
    print("KeyError", e)
mv.clear()
print(mv.is_empty(), DataTypes.LIST_VIEW(DataTypes.STRING()),
      DataTypes.MAP_VIEW(DataTypes.STRING(), DataTypes.INT()))
