"""TableDescriptor with a FormatDescriptor (PyFlink's word_count example's shape): the
format's options prefixed with the format ('csv.field-delimiter'), or with the key prefix
of a format option ('key.json.<option>' for 'key.format'); get_options() in PyFlink's
order; str() of a FormatDescriptor; a csv table read through it."""
import os
import shutil
import tempfile

from pyflink.common import ConfigOptions
from pyflink.table import (DataTypes, EnvironmentSettings, FormatDescriptor, Schema,
                           TableDescriptor, TableEnvironment)

root = tempfile.mkdtemp()
with open(os.path.join(root, "words.csv"), "w") as f:
    f.write("flink;3\nspark;5\nflink;4\n")

csv = FormatDescriptor.for_format('csv').option('field-delimiter', ';') \
    .option('quote-character', "'").build()
print(csv.get_format(), csv.get_options())
print(str(csv))
print(csv == FormatDescriptor.for_format('csv').option('field-delimiter', ';')
      .option('quote-character', "'").build())



def shown(options):
    return {k: "<root>" if v == root else v for k, v in options.items()}


schema = Schema.new_builder().column('word', DataTypes.STRING()) \
    .column('n', DataTypes.INT()).build()
source = TableDescriptor.for_connector('filesystem').schema(schema) \
    .option('path', root).format(csv).build()
print(shown(source.get_options()))
print(shown(TableDescriptor.for_connector('filesystem').option('path', root).format('csv')
            .build().get_options()))
key_format = ConfigOptions.key('key.format').string_type().no_default_value()
kafka = TableDescriptor.for_connector('kafka') \
    .format(FormatDescriptor.for_format('json').option('fail-on-missing-field', 'true').build(),
            key_format) \
    .format('json').build()
print(kafka.get_options())

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.create_temporary_table('words', source)
t_env.sql_query("SELECT word, SUM(n) AS total FROM words GROUP BY word").execute().print()
shutil.rmtree(root)
