"""Elasticsearch7SinkBuilder against an Elasticsearch 7.17 node: a static index with a key field
(upserts: each id keeps its last record, bulks of 2 actions), a dynamic index without a key (ids
the node chooses, so only the documents are printed), and a document the index's mapping
rejects (the job fails; the bulk's other action is written). The node's HTTP address comes from
PYFLINK_ON_SPARK_TEST_ELASTICSEARCH_URL (set by the tests' `elasticsearch` fixture); the
documents are read back over HTTP and printed sorted.

Real PyFlink 1.20 needs flink-sql-connector-elasticsearch7 3.0.1-1.17 from the local Maven
repository:
  mvn dependency:get -Dartifact=org.apache.flink:flink-sql-connector-elasticsearch7:3.0.1-1.17 -Dtransitive=false
"""
import json
import os
import urllib.request

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.elasticsearch import (Elasticsearch7SinkBuilder,
                                                         ElasticsearchEmitter)

URL = os.environ["PYFLINK_ON_SPARK_TEST_ELASTICSEARCH_URL"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-elasticsearch7/"
                         "3.0.1-1.17/flink-sql-connector-elasticsearch7-3.0.1-1.17.jar")
STRINGS = Types.MAP(Types.STRING(), Types.STRING())


def http(method, path, body=None):
    request = urllib.request.Request(URL + path, data=body, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as e:
        return json.loads(e.read())


def documents(index, with_ids=True):
    http("POST", "/%s/_refresh" % index)
    hits = http("GET", "/%s/_search?size=1000" % index)["hits"]["hits"]
    return sorted("%s %s%s" % (h["_index"], h["_id"] + " " if with_ids else "",
                               json.dumps(h["_source"], sort_keys=True)) for h in hits)


env = StreamExecutionEnvironment.get_execution_environment()
# PyFlink needs the connector jar (fetched with mvn where it is recorded) before an emitter is
# built; the shim sends the bulks itself, and add_jars of a missing file fails on both
if os.path.exists(JAR):
    env.add_jars("file://" + JAR)
env.set_parallelism(1)


def run(records, emitter, max_actions=1000):
    env.from_collection(records, type_info=STRINGS).sink_to(
        Elasticsearch7SinkBuilder().set_hosts([URL]).set_emitter(emitter)
        .set_bulk_flush_max_actions(max_actions).build())
    env.execute("elasticsearch sink")


http("DELETE", "/compat_es_*")

run([{"id": str(i % 3), "name": "v%d" % i} for i in range(7)],
    ElasticsearchEmitter.static_index("compat_es_static", "id"), max_actions=2)
print("\n".join(documents("compat_es_static")))

run([{"where": "compat_es_dyn_" + ("odd" if i % 2 else "even"), "n": str(i)} for i in range(5)],
    ElasticsearchEmitter.dynamic_index("where"))
print("\n".join(documents("compat_es_dyn_*", with_ids=False)))

http("PUT", "/compat_es_typed", b'{"mappings": {"properties": {"n": {"type": "long"}}}}')
try:
    run([{"id": "1", "n": "12"}, {"id": "2", "n": "twelve"}],
        ElasticsearchEmitter.static_index("compat_es_typed", "id"))
    print("no failure")
except Exception as e:
    print("failed:", "of bulk request failed with status 400" in str(e),
          "mapper_parsing_exception" in str(e))
print("\n".join(documents("compat_es_typed")))
