import { U, A, think, say, Read, Edit, Bash, Grep } from '../gen.mjs';

const PROMPTS = `from datetime import datetime, timezone
from pathlib import Path

STYLE_GUIDE = (Path(__file__).parent / "style_guide.md").read_text()
INSTRUCTIONS = """You summarise customer support tickets for the on-call team.
Lead with what the customer needs, then what has been tried, then open questions.
Flag anything that sounds like data loss, a security problem or a legal threat as ESCALATE."""


def build_system_prompt() -> list[dict]:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return [
        {"type": "text", "text": f"Current time: {now}\\n\\n{INSTRUCTIONS}"},
        {"type": "text", "text": STYLE_GUIDE, "cache_control": {"type": "ephemeral"}},
    ]
`;
const LLM = `import os

import anthropic

from .prompts import build_system_prompt

MODEL = os.environ.get("SUMMARY_MODEL", "claude-sonnet-4-5")
client = anthropic.Anthropic()


def summarise(ticket_text: str) -> str:
    msg = client.messages.create(
        model=MODEL,
        max_tokens=1024,
        system=build_system_prompt(),
        messages=[{"role": "user", "content": ticket_text}],
    )
    return msg.content[0].text
`;
const WORKER = `from .llm import summarise
from .store import save_summary, tickets_to_summarise


def run_batch(limit: int = 500) -> None:
    for ticket in tickets_to_summarise(limit):
        summary = summarise(ticket.render())
        save_summary(ticket.id, summary)
`;
const FAKES = `from types import SimpleNamespace


class FakeMessages:
    def __init__(self, reply="summary"):
        self.reply = reply
        self.calls = []

    def create(self, **kwargs):
        self.calls.append(kwargs)
        return SimpleNamespace(content=[SimpleNamespace(text=self.reply)], usage=SimpleNamespace(input_tokens=10, output_tokens=5))


class FakeClient:
    def __init__(self, reply="summary"):
        self.messages = FakeMessages(reply)
`;
const BACKFILL = `"""One-off: summarise tickets closed before the copilot existed."""
import anthropic

from copilot.prompts import build_system_prompt
from copilot.store import closed_tickets_without_summary, save_summary

client = anthropic.Anthropic()

for ticket in closed_tickets_without_summary():
    msg = client.messages.create(
        model="claude-3-5-haiku-latest",
        max_tokens=512,
        system=build_system_prompt(),
        messages=[{"role": "user", "content": ticket.render()}],
    )
    save_summary(ticket.id, msg.content[0].text)
`;

export default {
  num: 191,
  slug: 'llm-ticket-summaries-caching-retries',
  version: '1.0.111',
  model: 'claude-sonnet-4-20250514',
  cwd: '/Users/ana/code/support-copilot',
  branch: 'fix/llm-costs',
  title: 'Prompt cache misses, overload crashes and long tickets in the summariser',
  start: '2025-09-15T07:58:40.221Z',
  notes: [
    'The user gives one [MEMORY: decision] tag; its expected text is the rest of that sentence. "Please make sure nothing defaults to another model" is a one-off request.',
    'Both API keys appear in the output of a grep over .env. The first pytest run fails and counts as a command.',
  ],
  script: [
    U("Our ticket summariser got expensive and flaky. Three things: the Anthropic bill says we barely get cache hits even though we set cache_control, the nightly batch dies on overloaded errors, and a few huge tickets fail with \"prompt is too long\". Code is in copilot/, yesterday's usage log is logs/usage-2025-09-14.jsonl"),
    A(
      say('⟦F⟧Let me look at how the prompt is built and what the usage log says.⟦/⟧'),
      Read('copilot/llm.py', LLM),
      Read('copilot/prompts.py', PROMPTS),
      Bash("tail -n 6 logs/usage-2025-09-14.jsonl | jq -c '{ticket, usage, error}'", 'Show the last few usage records', { stdout: `{"ticket":88407,"usage":{"input_tokens":2811,"cache_creation_input_tokens":3104,"cache_read_input_tokens":0,"output_tokens":312},"error":null}
{"ticket":88408,"usage":{"input_tokens":1980,"cache_creation_input_tokens":3104,"cache_read_input_tokens":0,"output_tokens":287},"error":null}
{"ticket":88409,"usage":{"input_tokens":5522,"cache_creation_input_tokens":3104,"cache_read_input_tokens":0,"output_tokens":401},"error":null}
{"ticket":88410,"usage":{"input_tokens":2304,"cache_creation_input_tokens":3104,"cache_read_input_tokens":0,"output_tokens":260},"error":null}
{"ticket":88411,"usage":{"input_tokens":3419,"cache_creation_input_tokens":3104,"cache_read_input_tokens":0,"output_tokens":355},"error":null}
{"ticket":88412,"usage":null,"error":"overloaded_error (529) after 3 attempts"}` }),
    ),
    A(
      think("cache_read 0 every time, creation 3104 every time: the prefix changes per call. The timestamp in block one, down to the minute. ⟦F⟧Batch runs sequentially so two calls within the same minute would share it, but not across minutes.⟦/⟧"),
      say("⟦N⟧Every record writes about 3,100 tokens to the cache and reads none, which is what a prefix that changes on each request looks like.⟦/⟧ ⟦E knowledge_acquired|byte-identical;datetime.now()⟧A cached prefix is only reused when everything up to the breakpoint is byte-identical, and `build_system_prompt()` starts with `datetime.now()` to the minute, so the `cache_control` on the style guide block never gets a hit.⟦/⟧\n\n⟦F⟧Let me check the worker and which keys and model settings the environment has.⟦/⟧"),
      Read('copilot/worker.py', WORKER),
      Bash('grep -nE "ANTHROPIC|OPENAI|MODEL" .env', 'Check model and key settings in .env', { stdout: `3:ANTHROPIC_API_KEY=⟦S⟧sk-ant-api03-aTC_iapj_mf1EkNFd-4CgLf-zygLr36uYbHzPzBNCaKyA4cwFAjAkV6ZSf4uS0fHTxEUhCRVgdLzVUO0fzbHb2SGC8BQG-iks7esAA⟦/S⟧
4:OPENAI_API_KEY=⟦S⟧sk-proj-wG0ewb0PquTWJGezVqYptzXFfbmfp2ydy1MIMy6FHk31Ds4MT3BlbkFJ3wNrT_J75_8FTQcZHW0UZUpcm_rNNkyXRlTaxpY4npNk8eDw⟦/S⟧
7:SUMMARY_MODEL=claude-sonnet-4-5` }),
    ),
    A(
      say("⟦E decision_made|first user message;instructions⟧The timestamp moves out of the system prompt into the first user message, so the instructions and the style guide form a stable prefix that the existing breakpoint can cache.⟦/⟧ ⟦F⟧With about 3,100 cached tokens per call, reads should cost a tenth of what the writes cost now.⟦/⟧"),
      Edit('copilot/prompts.py', `def build_system_prompt() -> list[dict]:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return [
        {"type": "text", "text": f"Current time: {now}\\n\\n{INSTRUCTIONS}"},
        {"type": "text", "text": STYLE_GUIDE, "cache_control": {"type": "ephemeral"}},
    ]`, `def build_system_prompt() -> list[dict]:
    # Must stay identical across calls: anything that varies breaks the prompt cache.
    return [
        {"type": "text", "text": INSTRUCTIONS},
        {"type": "text", "text": STYLE_GUIDE, "cache_control": {"type": "ephemeral"}},
    ]


def user_turn(ticket_text: str) -> str:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"Current time: {now}\\n\\n{ticket_text}"`),
    ),
    A(
      say("⟦E knowledge_acquired|max_retries;overloaded_error⟧The Python SDK already retries 429s and 5xx responses twice with backoff (`max_retries=2` by default), so the crash is an `overloaded_error` burst that outlasts those attempts, not a missing retry.⟦/⟧ ⟦E approach_rejected|tenacity;retry layers⟧Wrapping calls in `tenacity` on top of that would stack two retry layers and multiply the waits.⟦/⟧ ⟦E decision_made|max_retries=6;per ticket⟧The client gets `max_retries=6`, and the worker catches `anthropic.APIStatusError` per ticket, marks that ticket for the next run and moves on.⟦/⟧"),
      Edit('copilot/worker.py', `from .llm import summarise
from .store import save_summary, tickets_to_summarise


def run_batch(limit: int = 500) -> None:
    for ticket in tickets_to_summarise(limit):
        summary = summarise(ticket.render())
        save_summary(ticket.id, summary)`, `import logging

import anthropic

from .llm import summarise
from .store import mark_for_retry, save_summary, tickets_to_summarise

log = logging.getLogger(__name__)


def run_batch(limit: int = 500) -> None:
    for ticket in tickets_to_summarise(limit):
        try:
            summary = summarise(ticket)
        except anthropic.APIStatusError as e:
            log.warning("summary failed for ticket %s: HTTP %s", ticket.id, e.status_code)
            mark_for_retry(ticket.id)
            continue
        save_summary(ticket.id, summary)`),
    ),
    A(
      say("⟦E decision_made|newest comments;150k⟧For the long tickets, `summarise` measures the request with `client.messages.count_tokens` first, and a ticket over 150k input tokens keeps only its newest comments, halving how many it keeps until it fits.⟦/⟧ ⟦E approach_rejected|characters;stack traces⟧Cutting by characters would save the extra call, but characters drift too far from tokens on tickets full of stack traces and base64 attachments.⟦/⟧"),
      Edit('copilot/llm.py', `from .prompts import build_system_prompt

MODEL = os.environ.get("SUMMARY_MODEL", "claude-sonnet-4-5")
client = anthropic.Anthropic()


def summarise(ticket_text: str) -> str:
    msg = client.messages.create(
        model=MODEL,
        max_tokens=1024,
        system=build_system_prompt(),
        messages=[{"role": "user", "content": ticket_text}],
    )
    return msg.content[0].text`, `from .prompts import build_system_prompt, user_turn

MODEL = os.environ.get("SUMMARY_MODEL", "claude-sonnet-4-5")
MAX_INPUT_TOKENS = 150_000
SYSTEM = build_system_prompt()
client = anthropic.Anthropic(max_retries=6)


def _fit(ticket) -> str:
    keep = len(ticket.comments)
    while True:
        text = user_turn(ticket.render(last_comments=keep))
        n = client.messages.count_tokens(model=MODEL, system=SYSTEM, messages=[{"role": "user", "content": text}]).input_tokens
        if n <= MAX_INPUT_TOKENS or keep == 0:
            return text
        keep //= 2


def summarise(ticket) -> str:
    msg = client.messages.create(
        model=MODEL,
        max_tokens=1024,
        system=SYSTEM,
        messages=[{"role": "user", "content": _fit(ticket)}],
    )
    return msg.content[0].text`),
      Bash('pytest -q', 'Run the test suite', { code: 1, stdout: `..F....                                                                  [100%]
=================================== FAILURES ===================================
_________________________ test_summarise_uses_sonnet __________________________
    def test_summarise_uses_sonnet(fake_client, ticket):
>       summarise(ticket)
copilot/llm.py:18: in _fit
    n = client.messages.count_tokens(model=MODEL, system=SYSTEM, messages=[{"role": "user", "content": text}]).input_tokens
E   AttributeError: 'FakeMessages' object has no attribute 'count_tokens'
=========================== short test summary info ============================
FAILED tests/test_llm.py::test_summarise_uses_sonnet - AttributeError: 'FakeMessages' object has no attribute 'count_tokens'
1 failed, 6 passed in 0.41s` }),
    ),
    A(
      Read('tests/fakes.py', FAKES),
    ),
    A(
      Edit('tests/fakes.py', `    def create(self, **kwargs):`, `    def count_tokens(self, **kwargs):
        return SimpleNamespace(input_tokens=1200)

    def create(self, **kwargs):`),
      Bash('pytest -q', 'Re-run the tests', { stdout: '.......                                                                  [100%]\n7 passed in 0.38s' }),
    ),
    A(
      say(`⟦E error_resolved|FakeMessages;test double⟧The \`AttributeError\` on \`FakeMessages.count_tokens\` came from the test double predating the new call, and giving it a \`count_tokens\` that returns a fixed size makes the suite pass.⟦/⟧

Summary:
- ⟦N⟧\`prompts.py\`: system prompt is static; the time goes into the user turn via \`user_turn()\`⟦/⟧
- ⟦N⟧\`llm.py\`: six retries, token check before each call, older comments dropped for oversized tickets⟦/⟧
- ⟦N⟧\`worker.py\`: one failing ticket no longer ends the batch⟦/⟧

⟦F⟧Tonight's run will show whether \`cache_read_input_tokens\` picks up; I'd expect it to be non-zero from the second ticket on.⟦/⟧`),
    ),
    U("looks good. [MEMORY: decision] ⟦E decision_made|claude-sonnet-4-5;haiku⟧summaries stay on claude-sonnet-4-5; we tried haiku in March and it missed escalation cues⟦/⟧. ⟦F⟧Please make sure nothing in the repo defaults to another model.⟦/⟧"),
    A(
      Grep('claude-', { path: '.', glob: '*.py', output_mode: 'content', n: true, result: `copilot/llm.py:7:MODEL = os.environ.get("SUMMARY_MODEL", "claude-sonnet-4-5")
scripts/backfill_summaries.py:11:        model="claude-3-5-haiku-latest",` }),
    ),
    A(
      say('⟦N⟧One leftover: the backfill script hard-codes haiku.⟦/⟧'),
      Read('scripts/backfill_summaries.py', BACKFILL),
      Edit('scripts/backfill_summaries.py', `from copilot.prompts import build_system_prompt
from copilot.store import closed_tickets_without_summary, save_summary`, `from copilot.llm import MODEL
from copilot.prompts import build_system_prompt
from copilot.store import closed_tickets_without_summary, save_summary`),
    ),
    A(
      Edit('scripts/backfill_summaries.py', '        model="claude-3-5-haiku-latest",', '        model=MODEL,'),
    ),
    A(
      say("⟦N⟧`scripts/backfill_summaries.py` now imports `MODEL` from `copilot.llm`, so the whole repo reads the model from one place.⟦/⟧ ⟦F⟧Do you also want `SUMMARY_MODEL` removed from `.env`, so nobody can override it by accident?⟦/⟧"),
    ),
  ],
};
