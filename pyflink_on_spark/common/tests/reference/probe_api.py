"""Reference probe: PyFlink 1.20 API behaviours that need no job (Row, Types, Configuration,
ExecutionConfig, restart strategies, time classes, watermark strategies, enums).

Run with real PyFlink: PATH=/opt/venvs/flink/bin:$PATH python probe_api.py
Each line is "<label> => <repr of the result>" or "<label> => EXC <type> <message>"; the
results are asserted in the test_common_*.py files next to this directory.
"""
import datetime
import pickle
import warnings

from pyflink.common import *  # noqa: F401,F403
from pyflink.common import constants
from pyflink.common.restart_strategy import RestartStrategies
from pyflink.common.serializer import VoidNamespaceSerializer
from pyflink.common.time import Duration, Instant, Time
from pyflink.common.typeinfo import BasicType, BasicTypeInfo, Types
from pyflink.common.types import Row, RowKind
from pyflink.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment

warnings.simplefilter("ignore")


def t(label, f):
    try:
        print(label, "=>", repr(f()))
    except Exception as e:
        print(label, "=> EXC", type(e).__name__, str(e)[:200].replace("\n", " "))


env = StreamExecutionEnvironment.get_execution_environment()
c = env.get_config()
for m in ["get_auto_watermark_interval", "get_latency_tracking_interval", "get_parallelism",
          "get_max_parallelism", "get_task_cancellation_interval",
          "get_task_cancellation_timeout", "get_restart_strategy", "get_execution_mode",
          "get_default_input_dependency_constraint", "is_force_kryo_enabled",
          "has_generic_types_disabled", "has_auto_generated_uids_enabled",
          "is_force_avro_enabled", "is_object_reuse_enabled", "get_global_job_parameters",
          "get_registered_types_with_kryo_serializer_classes",
          "get_default_kryo_serializer_classes", "get_registered_kryo_types",
          "get_registered_pojo_types", "is_auto_type_registration_disabled",
          "is_use_snapshot_compression", "is_closure_cleaner_enabled"]:
    t("cfg." + m, getattr(c, m))
t("cfg.set_parallelism(0)", lambda: c.set_parallelism(0))
t("cfg.set_parallelism(-1)", lambda: c.set_parallelism(-1).get_parallelism())
t("cfg.set_max_parallelism(0)", lambda: c.set_max_parallelism(0))
t("cfg.set_max_parallelism(40000)", lambda: c.set_max_parallelism(40000).get_max_parallelism())
t("cfg.set_global_job_parameters",
  lambda: c.set_global_job_parameters({"a": 1, "b": "x", "c": True}).get_global_job_parameters())
t("cfg.set_auto_watermark_interval(-3)", lambda: c.set_auto_watermark_interval(-3))
t("cfg.set_latency(-3)", lambda: c.set_latency_tracking_interval(-3).get_latency_tracking_interval())
t("cfg.set_task_cancellation_timeout(-1)", lambda: c.set_task_cancellation_timeout(-1))
t("cfg.register_kryo_type", lambda: c.register_kryo_type("java.lang.String").get_registered_kryo_types())
for name, f in [("no", RestartStrategies.no_restart),
                ("fallback", RestartStrategies.fall_back_restart),
                ("fixed", lambda: RestartStrategies.fixed_delay_restart(3, 1500)),
                ("fixed_td", lambda: RestartStrategies.fixed_delay_restart(
                    3, datetime.timedelta(seconds=2, microseconds=500))),
                ("rate", lambda: RestartStrategies.failure_rate_restart(2, 60000, 1000))]:
    t("rs." + name + ".desc", lambda: f().get_description())
    t("rs." + name + ".eq", lambda: f() == f())
t("rs.fixed bad", lambda: RestartStrategies.fixed_delay_restart(3, 1.5))
cf = Configuration()
t("conf.set_integer", lambda: cf.set_integer("i", 5).get_string("i", "d"))
t("conf.get_integer bad", lambda: cf.set_string("bad", "abc").get_integer("bad", 7))
t("conf.get_boolean bad", lambda: cf.get_boolean("bad", False))
t("conf.set_float 1e10", lambda: cf.set_float("f2", 1e10).get_string("f2", ""))
t("conf.set_bytearray", lambda: cf.set_bytearray("ba", bytearray(b"\x01\x02")).get_string("ba", ""))
t("conf.to_dict", lambda: cf.to_dict())
t("conf.str", lambda: str(cf))
t("conf str", lambda: str(Configuration().set_integer("k", 5).set_string("s", "v")))
t("conf.parse_list_value", lambda: (Configuration.parse_list_value("a;b"),
                                    Configuration.parse_list_value("[a, b]")))
for n in ["STRING", "BYTE", "BOOLEAN", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "CHAR",
          "BIG_INT", "BIG_DEC", "INSTANT", "SQL_DATE", "SQL_TIME", "SQL_TIMESTAMP",
          "PICKLED_BYTE_ARRAY"]:
    t("Types." + n, lambda: (repr(getattr(Types, n)()), type(getattr(Types, n)()).__name__))
t("ROW", lambda: repr(Types.ROW([Types.INT(), Types.STRING()])))
t("ROW_NAMED", lambda: repr(Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()])))
t("ROW repr after names", lambda: (lambda r: (r.get_field_names(), repr(r)))(
    Types.ROW([Types.INT(), Types.STRING()])))
t("hash INT", lambda: hash(Types.INT()))
t("Instant eq basic", lambda: Types.INSTANT() == BasicTypeInfo(BasicType.INSTANT))
t("row to_internal", lambda: Types.ROW([Types.INT(), Types.STRING()]).to_internal_type((1, "a")))
t("Row pos repr", lambda: repr(Row(1, "a", None, 1.5)))
t("Row named repr", lambda: repr(Row(b=1, a="x")))
t("Row class call", lambda: repr(Row("a", "b")(1, 2)))
t("Row call on named", lambda: repr(Row(a=1, b=2)(5, 6)))
t("Row getitem pos str", lambda: Row(1, 2)["zz"])
t("Row setitem missing", lambda: Row(a=1).__setitem__("zz", 1))
t("Row eq", lambda: (Row(1, 2) == Row(1, 2), Row(a=1, b=2) == Row(b=2, a=1), Row(1, 2) == (1, 2)))
t("Row pickle", lambda: (lambda r: (repr(r), r.get_row_kind()))(
    pickle.loads(pickle.dumps(Row.of_kind(RowKind.UPDATE_BEFORE, a=1, b="x")))))
t("Duration eq", lambda: Duration.of_seconds(1) == Duration.of_millis(1000))
t("Time", lambda: (str(Time.seconds(2)), Time.minutes(1).to_milliseconds()))
t("Instant", lambda: (repr(Instant.of_epoch_milli(-1500)),
                      Instant.of_epoch_milli(-1500).to_epoch_milli()))


class TA(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return 0


ws = WatermarkStrategy.for_monotonous_timestamps()
t("ws with_ts returns self", lambda: ws.with_timestamp_assigner(TA()) is ws)
t("ws with_idleness keeps assigner",
  lambda: ws.with_idleness(Duration.of_seconds(1))._timestamp_assigner)
t("JobStatus", lambda: [(s.name, s.is_terminal_state(), s.is_globally_terminal_state())
                        for s in JobStatus])
t("SimpleStringSchema", lambda: SimpleStringSchema("bogus-charset"))
t("constants", lambda: (constants.MAX_LONG_VALUE, constants.MIN_LONG_VALUE))
t("VoidNS", lambda: repr(VoidNamespaceSerializer()))
