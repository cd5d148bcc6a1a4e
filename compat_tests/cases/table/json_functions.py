"""JSON functions in SQL and the Table API (PyFlink's process_json_data / basic_operations
examples' shape): JSON_VALUE (strict by default: a missing path, a JSON null or text that is
no JSON give the ON ERROR behaviour, in lax mode the ON EMPTY one), JSON_QUERY with wrappers,
JSON_EXISTS, IS JSON, JSON_STRING, JSON_OBJECT (keys sorted) and JSON_ARRAY, and
col(...).json_value / json_query / json_exists / is_json."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expression import JsonExistsOnError, JsonQueryWrapper, JsonType
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set('parallelism.default', '1')
docs = t_env.from_elements(
    [(1, '{"name": "Flink", "tel": 123, "g": 1.50, "addr": {"country": "DE", "zip": null},'
         ' "tags": ["a", "b"]}'),
     (2, '{"name": "PyFlink", "tel": 32, "addr": {"country": "CN"}, "tags": "c"}'),
     (3, 'no json'), (4, None)],
    DataTypes.ROW([DataTypes.FIELD('id', DataTypes.BIGINT()),
                   DataTypes.FIELD('doc', DataTypes.STRING())]))
t_env.create_temporary_view('docs', docs)


def show(t):
    t.print_schema()
    with t.execute().collect() as results:
        for row in results:
            print(row)


show(t_env.sql_query(
    "SELECT id, JSON_VALUE(doc, '$.addr.country') AS country, JSON_VALUE(doc, '$.tel') AS tel, "
    "JSON_VALUE(doc, '$.g'), JSON_VALUE(doc, 'lax $.addr.zip' DEFAULT 'none' ON EMPTY), "
    "JSON_VALUE(doc, '$.addr.zip' DEFAULT 'e' ON EMPTY DEFAULT 'r' ON ERROR), "
    "JSON_VALUE(doc, '$.addr' DEFAULT 'e' ON EMPTY DEFAULT 'r' ON ERROR) FROM docs"))
show(t_env.sql_query(
    "SELECT id, JSON_QUERY(doc, '$.addr'), JSON_QUERY(doc, '$.tags' WITH CONDITIONAL WRAPPER), "
    "JSON_QUERY(doc, 'lax $.name' EMPTY ARRAY ON EMPTY), JSON_EXISTS(doc, '$.addr.zip'), "
    "JSON_EXISTS(doc, 'strict $.nope' TRUE ON ERROR), doc IS JSON, doc IS JSON OBJECT, "
    "JSON_STRING(id), JSON_OBJECT('k' VALUE id, 'd' VALUE JSON_VALUE(doc, '$.name'), "
    "'a' VALUE JSON_ARRAY(1, 'x', JSON_VALUE(doc, '$.nope'))) FROM docs"))
show(docs.select(col('id'), col('doc').json_value('$.name', DataTypes.STRING()).alias('name'),
                 col('doc').json_exists('strict $.tags', JsonExistsOnError.UNKNOWN),
                 col('doc').json_query('$.tags', JsonQueryWrapper.UNCONDITIONAL_ARRAY),
                 col('doc').is_json(JsonType.SCALAR)))
