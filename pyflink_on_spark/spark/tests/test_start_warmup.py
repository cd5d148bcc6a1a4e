"""The warm-up begun while a local Spark starts (spark/start_warmup.py)."""
import threading

from pyflink_on_spark.spark import start_warmup


def test_every_jvm_singleton_exists_in_this_spark(spark):
    # a renamed class would make its warm-up a silent no-op: the count says so
    assert start_warmup.warm_jvm(spark.sparkContext._jvm) == \
        1 + len(start_warmup.JVM_SINGLETONS)


def test_a_class_this_spark_lacks_is_skipped(spark, monkeypatch):
    monkeypatch.setattr(start_warmup, "JVM_SINGLETONS",
                        ("org.apache.spark.sql.NoSuchThing$",
                         "org.apache.spark.sql.internal.SQLConf$"))
    assert start_warmup.warm_jvm(spark.sparkContext._jvm) == 2


def test_the_warmup_stops_waiting_when_the_start_has_ended(monkeypatch):
    from pyspark import SparkContext
    monkeypatch.setattr(SparkContext, "_jvm", None)   # as before a JVM answers
    started = threading.Event()
    thread = start_warmup.start_warmup(started)
    started.set()      # the start failed: no JVM will come
    thread.join(10)
    assert not thread.is_alive()
