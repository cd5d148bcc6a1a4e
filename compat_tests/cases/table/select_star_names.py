"""The Table API's select: col('*') is the input's columns in its place (a grouped select's
keys), unnamed expressions are _c<position> counting the star's columns, and two result
columns of one name fail with Flink's `Ambiguous column name`."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([("a", 1), ("b", 2)], ["k", "v"])
cases = [
    ("*", lambda: t.select(col("*"))),
    ("*, v + 1", lambda: t.select(col("*"), col("v") + 1)),
    ("v + 1, *", lambda: t.select(col("v") + 1, col("*"))),
    ("*, (v + 1).alias('w')", lambda: t.select(col("*"), (col("v") + 1).alias("w"))),
    ("where, then *, upper", lambda: t.where(col("v") > 1).select(col("*"),
                                                                  col("k").upper_case)),
    ("group_by(k): *", lambda: t.group_by(col("k")).select(col("*"))),
    ("v + 1, v + 1", lambda: t.select(col("v") + 1, col("v") + 1)),
    ("k, k", lambda: t.select(col("k"), col("k"))),
    ("k, v.alias('k')", lambda: t.select(col("k"), col("v").alias("k"))),
    ("*, k", lambda: t.select(col("*"), col("k"))),
    ("*, *", lambda: t.select(col("*"), col("*"))),
    ("v.alias('_c1'), v + 1", lambda: t.select(col("v").alias("_c1"), col("v") + 1)),
    ("group_by(k): v.sum, v.sum", lambda: t.group_by(col("k")).select(col("v").sum,
                                                                     col("v").sum)),
]
for name, make in cases:
    try:
        table = make()
    except Exception as e:
        print(name, "-> refused:", "Ambiguous column name" in str(e),
              [w for w in str(e).replace(".", " ").split() if w.startswith(("k", "_c", "EXPR"))
               and "Ambiguous column name: " + w in str(e)])
        continue
    with table.execute().collect() as rows:
        print(name, "->", table.get_schema().get_field_names(), sorted(str(r) for r in rows))
