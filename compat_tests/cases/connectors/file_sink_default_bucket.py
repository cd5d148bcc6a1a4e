"""FileSink's default bucket assigner (DateTimeBucketAssigner, "yyyy-MM-dd--HH"): parts land
in a directory named after the current hour; a custom format and time zone too."""
import datetime
import os
import re
import tempfile

from pyflink.common import Encoder, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import BucketAssigner, FileSink

root = tempfile.mkdtemp()
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ds = env.from_collection([1, 2, 3], type_info=Types.INT())
ds.sink_to(FileSink.for_row_format(os.path.join(root, "hourly"),
                                   Encoder.simple_string_encoder()).build())
env.execute("default bucket")
before = datetime.datetime.now()
(bucket,) = os.listdir(os.path.join(root, "hourly"))
print("bucket looks like yyyy-MM-dd--HH:", bool(re.match(r"^\d{4}-\d\d-\d\d--\d\d$", bucket)))
print("bucket is today's date:", bucket[:10] == before.strftime("%Y-%m-%d"))
(part,) = os.listdir(os.path.join(root, "hourly", bucket))
with open(os.path.join(root, "hourly", bucket, part)) as f:
    print(repr(f.read()))

ds.sink_to(FileSink.for_row_format(os.path.join(root, "daily"), Encoder.simple_string_encoder())
           .with_bucket_assigner(BucketAssigner.date_time_bucket_assigner("yyyy'/day-'MM", "UTC"))
           .build())
env.execute("custom bucket")
(year,) = os.listdir(os.path.join(root, "daily"))
(month,) = os.listdir(os.path.join(root, "daily", year))
utc = datetime.datetime.now(datetime.timezone.utc)
print("custom bucket:", year == utc.strftime("%Y"), month == utc.strftime("day-%m"))
