"""The Elasticsearch sink's client side: each record turned into a bulk action as PyFlink's
MapElasticsearchEmitter does (actions.py), actions buffered and sent to the node's HTTP
`_bulk` API as Flink's ElasticsearchWriter drives Elasticsearch's BulkProcessor (bulk.py),
over the standard library's http.client (no client package to ship to the workers)."""
