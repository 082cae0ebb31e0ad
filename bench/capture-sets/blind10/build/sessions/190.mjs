import { U, A, think, say, Read, Write, Edit, MultiEdit, Bash, Todo } from '../gen.mjs';

const T1 = 'Add a keyword subfield on name so sorting by name works';
const T2 = 'Map sku as keyword with a case-insensitive normalizer';
const T3 = 'Add a search_as_you_type field for name autocomplete';
const T4 = 'Reindex products into products_v2 and point a products alias at it';
const af = { [T1]: 'Adding a keyword subfield on name', [T2]: 'Remapping sku as keyword', [T3]: 'Adding the autocomplete field', [T4]: 'Reindexing into products_v2' };
const todos = (...st) => [T1, T2, T3, T4].map((c, i) => ({ content: c, status: st[i], activeForm: af[c] }));

const PW = '⟦S⟧u1OUinObWiovFXhV1AdU⟦/S⟧';
const URL = `https://admin:${PW}@localhost:9200`;
const QUERIES = `from .client import client

INDEX = "products"


def search_products(q: str, sort: str | None = None, size: int = 20):
    body = {"query": {"multi_match": {"query": q, "fields": ["name^3", "description"]}}, "size": size}
    if sort == "name":
        body["sort"] = [{"name": "asc"}]
    return client.search(index=INDEX, body=body)


def find_by_sku(sku: str):
    return client.search(index=INDEX, body={"query": {"term": {"sku": sku}}})
`;
const INDEXER = `import os

from opensearchpy import helpers

from .client import client

INDEX = os.environ.get("SEARCH_INDEX", "products")


def bulk_index(products):
    actions = ({"_index": INDEX, "_id": p["sku"], "_source": p} for p in products)
    return helpers.bulk(client, actions, chunk_size=1000, request_timeout=60)
`;
const MAPPING = `{
  "mappings": {
    "properties": {
      "name": {
        "type": "text",
        "copy_to": "name_suggest",
        "fields": {
          "raw": { "type": "keyword", "normalizer": "lowercase_ascii", "ignore_above": 256 }
        }
      },
      "name_suggest": { "type": "search_as_you_type" },
      "description": { "type": "text" },
      "sku": { "type": "keyword", "normalizer": "lowercase_ascii" },
      "price": { "type": "scaled_float", "scaling_factor": 100 },
      "updated_at": { "type": "date" }
    }
  }
}
`;

export default {
  num: 190,
  slug: 'opensearch-product-search-mapping',
  version: '2.1.3',
  model: 'claude-opus-4-5-20251101',
  cwd: '/srv/dev/shopfront-api',
  branch: 'feat/search-v2',
  aiSlug: 'sorted-keyword-lantern',
  start: '2026-01-08T13:47:20.118Z',
  todoKeywords: {
    [T1]: ['keyword subfield', 'sorting'],
    [T2]: ['sku', 'case-insensitive'],
    [T3]: ['search_as_you_type', 'autocomplete'],
    [T4]: ['reindex', 'products_v2'],
  },
  notes: [
    'The password of the dev cluster appears in the user text and in three curl commands. The first PUT of products_v2 fails (curl --fail-with-body exits 22) and counts as a command.',
    'An Edit of search/indexer.py fails because the file was not read first (is_error); the file is only explored, not modified. The reindex todo stays pending; the commands in the last answer are a code block and must not produce memories.',
  ],
  script: [
    U(`Search needs three things: sorting by name (it throws right now), exact SKU lookup that ignores case, and autocomplete on product names. Dev cluster is OpenSearch 2.13 at ${URL} (self-signed cert).`),
    A(
      say('⟦F⟧Let me pull the current mapping and look at how the queries are built.⟦/⟧'),
      Bash(`curl -sk "${URL}/products/_mapping?pretty"`, 'Fetch the current products mapping', { stdout: `{
  "products" : {
    "mappings" : {
      "properties" : {
        "description" : { "type" : "text" },
        "name" : { "type" : "text" },
        "price" : { "type" : "scaled_float", "scaling_factor" : 100.0 },
        "sku" : { "type" : "text" },
        "updated_at" : { "type" : "date" }
      }
    }
  }
}` }),
      Read('search/queries.py', QUERIES),
    ),
    A(
      think("⟦F⟧name is text only, so sort needs fielddata or a keyword subfield.⟦/⟧ sku as text means term queries compare against analyzed tokens. Changing sku's type needs a new index."),
      say(`⟦E knowledge_acquired|fielddata;doc values⟧Sorting on \`name\` throws the fielddata error because \`name\` is mapped as \`text\` only, and text fields have no doc values to sort on.⟦/⟧ ⟦E approach_rejected|fielddata: true;heap⟧Setting \`fielddata: true\` on it would silence the error, but it loads every term into heap and sorts on analyzed tokens, so "The Pixel 8" would sort under "8".⟦/⟧

⟦E knowledge_acquired|find_by_sku;analyzed tokens⟧\`find_by_sku\` sends a \`term\` query against a \`text\` field, so \`AB-1234\` is compared with the analyzed tokens \`ab\` and \`1234\` and never matches.⟦/⟧ ⟦E knowledge_acquired|in place;new index⟧OpenSearch can add subfields to an existing mapping, but it can't change \`sku\` from \`text\` to \`keyword\` in place; that takes a new index and a reindex.⟦/⟧`),
      Todo(todos('in_progress', 'pending', 'pending', 'pending')),
    ),
    A(
      Write('search/mappings/products_v2.json', MAPPING),
      { ...Bash(`curl -sk --fail-with-body -X PUT "${URL}/products_v2" -H 'Content-Type: application/json' -d @search/mappings/products_v2.json`, 'Create products_v2 with the new mapping', { code: 22, stdout: `{"error":{"root_cause":[{"type":"mapper_parsing_exception","reason":"Failed to parse mapping [_doc]: normalizer [lowercase_ascii] not found for field [raw]"}],"type":"mapper_parsing_exception","reason":"Failed to parse mapping [_doc]: normalizer [lowercase_ascii] not found for field [raw]"},"status":400}`, stderr: 'curl: (22) The requested URL returned error: 400' }), hook: 'python3 ~/.claude/hooks/redact_urls.py' },
    ),
    A(
      say('⟦F⟧The normalizer has to be declared in the index settings in the same request.⟦/⟧'),
      Edit('search/mappings/products_v2.json', `{
  "mappings": {`, `{
  "settings": {
    "analysis": {
      "normalizer": {
        "lowercase_ascii": { "type": "custom", "filter": ["lowercase", "asciifolding"] }
      }
    }
  },
  "mappings": {`),
      Bash(`curl -sk --fail-with-body -X PUT "${URL}/products_v2" -H 'Content-Type: application/json' -d @search/mappings/products_v2.json`, 'Create products_v2 again', { stdout: '{"acknowledged":true,"shards_acknowledged":true,"index":"products_v2"}' }),
    ),
    A(
      say(`⟦E error_resolved|not found for field;analysis⟧The \`normalizer [lowercase_ascii] not found for field [raw]\` error came from the mapping file having no \`analysis\` block; with the normalizer declared under \`settings.analysis\`, \`products_v2\` creates cleanly.⟦/⟧ ⟦E decision_made|sku;normalizer⟧\`sku\` is now a \`keyword\` with that \`lowercase_ascii\` normalizer, so \`AB-1234\` and \`ab-1234\` hit the same term.⟦/⟧

⟦E decision_made|search_as_you_type;copy_to⟧Autocomplete reads from a \`name_suggest\` field of type \`search_as_you_type\`, filled by \`copy_to\` from \`name\`, and queried with a \`bool_prefix\` multi_match.⟦/⟧ ⟦E approach_rejected|wildcard;term dictionary⟧A \`*phone*\` wildcard query would cover autocomplete without a mapping change, but it walks the term dictionary on every keystroke.⟦/⟧`),
      MultiEdit('search/queries.py', [
        ['INDEX = "products"', 'INDEX = "products_v2"'],
        ['        body["sort"] = [{"name": "asc"}]\n    return client.search(index=INDEX, body=body)', `        body["sort"] = [{"name.raw": "asc"}]
    return client.search(index=INDEX, body=body)


def autocomplete(prefix: str, size: int = 8):
    body = {
        "query": {
            "multi_match": {
                "query": prefix,
                "type": "bool_prefix",
                "fields": ["name_suggest", "name_suggest._2gram", "name_suggest._3gram"],
            }
        },
        "_source": ["name", "sku"],
        "size": size,
    }
    return client.search(index=INDEX, body=body)`],
      ]),
    ),
    A(
      Edit('search/indexer.py', 'INDEX = "products"', 'INDEX = "products_v2"', { error: 'File has not been read yet. Read it first before writing to it.' }),
    ),
    A(
      Read('search/indexer.py', INDEXER),
    ),
    A(
      say('⟦N⟧The indexer takes its target from `SEARCH_INDEX` in the environment, so it needs no code change.⟦/⟧'),
      Bash('pytest search/tests -q', 'Run the search tests against the dev cluster', { stdout: '........                                                                 [100%]\n8 passed in 3.12s' }),
      Todo(todos('completed', 'completed', 'completed', 'pending')),
    ),
    A(
      say(`⟦N⟧Mapping and queries are ready; the data isn't moved yet.⟦/⟧

- \`search/mappings/products_v2.json\`: ⟦N⟧\`name.raw\` keyword for sorting, \`name_suggest\` for autocomplete, \`sku\` as a normalized keyword⟦/⟧
- ⟦N⟧\`search/queries.py\`: targets \`products_v2\`, sorts on \`name.raw\`, new \`autocomplete()\`⟦/⟧
- ⟦N⟧\`products_v2\` exists on the dev cluster but is empty, so the 8 tests ran against fixtures that index their own documents⟦/⟧

⟦F⟧The reindex is the one step left, and it should take a few minutes for the 180k products on dev.⟦/⟧`),
    ),
    { kind: 'system', subtype: 'turn_duration', fields: { durationMs: 162004 } },
    U("I'll run the reindex tonight. what's the exact command?"),
    A(
      say(`Two calls, reindex first, then the alias:

\`\`\`bash
curl -sk -X POST "$OPENSEARCH_URL/_reindex?wait_for_completion=false" -H 'Content-Type: application/json' \\
  -d '{"source":{"index":"products"},"dest":{"index":"products_v2"}}'
# ⟦F⟧when the task is done, delete the old index and point the products alias at v2 in one request⟦/⟧
curl -sk -X POST "$OPENSEARCH_URL/_aliases" -H 'Content-Type: application/json' \\
  -d '{"actions":[{"remove_index":{"index":"products"}},{"add":{"index":"products_v2","alias":"products"}}]}'
\`\`\`

⟦F⟧If you'd rather keep the old index around for a day, drop the \`remove_index\` action and rename instead.⟦/⟧ ⟦F⟧Should \`queries.py\` go back to the \`products\` name once the alias exists?⟦/⟧`),
    ),
  ],
};
