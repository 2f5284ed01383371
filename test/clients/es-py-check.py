"""Drives a Quarry node with the official Python client (7.x, Debian's python3-elasticsearch)."""
import json
import sys

from elasticsearch import Elasticsearch, NotFoundError

es = Elasticsearch([sys.argv[1]])
out = {}
info = es.info()
out["version"] = info["version"]["number"]
r = es.index(index="py", doc_type="_doc", id="1", body={"title": "hello", "n": 1}, refresh=True)
out["index_result"] = r["result"]
out["index_version"] = r["_version"]
g = es.get(index="py", doc_type="_doc", id="1")
out["get_source"] = g["_source"]
out["exists"] = es.exists(index="py", doc_type="_doc", id="1")
s = es.search(index="py", body={"query": {"match": {"title": "hello"}}})
out["search_total"] = s["hits"]["total"]
d = es.delete(index="py", doc_type="_doc", id="1")
out["delete_result"] = d["result"]
out["exists_after"] = es.exists(index="py", doc_type="_doc", id="1")
try:
    es.get(index="py", doc_type="_doc", id="1")
    out["missing"] = "no error"
except NotFoundError as e:
    out["missing"] = e.status_code
print(json.dumps(out))
