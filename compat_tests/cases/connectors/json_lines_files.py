"""JSON lines: read with text_line_format and json.loads into typed Rows, aggregated, and
written back as JSON lines through a FileSink (read back and printed)."""
import json
import os
import tempfile

from pyflink.common import Encoder, Row, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import (BucketAssigner, FileSink, FileSource,
                                                       StreamFormat)

root = tempfile.mkdtemp()
with open(os.path.join(root, "events.jsonl"), "w") as f:
    for i, (user, amount) in enumerate([("ann", 3), ("bob", 5), ("ann", 4), ("cid", 1),
                                        ("bob", 2)]):
        f.write(json.dumps({"seq": i, "user": user, "amount": amount}) + "\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                             os.path.join(root, "events.jsonl")).build()
row_type = Types.ROW_NAMED(["user", "amount"], [Types.STRING(), Types.INT()])
events = env.from_source(source, WatermarkStrategy.no_watermarks(), "json") \
    .map(lambda line: Row(user=json.loads(line)["user"], amount=json.loads(line)["amount"]),
         output_type=row_type)
totals = events.key_by(lambda r: r.user, key_type=Types.STRING()) \
    .reduce(lambda a, b: Row(user=a.user, amount=a.amount + b.amount))
totals.print()
env.execute("totals")

out = os.path.join(root, "out")
totals.map(lambda r: json.dumps({"user": r.user, "total": r.amount}, sort_keys=True),
           output_type=Types.STRING()) \
    .sink_to(FileSink.for_row_format(out, Encoder.simple_string_encoder())
             .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
env.execute("write json")
for name in sorted(os.listdir(out)):
    with open(os.path.join(out, name)) as f:
        print([json.loads(line) for line in f])
