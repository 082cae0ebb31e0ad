// Tests must not see a developer's global git config (a global core.hooksPath, templates or
// default branch would change what they observe), and CI has no global identity at all.
process.env.GIT_CONFIG_GLOBAL = '/dev/null';
process.env.GIT_CONFIG_NOSYSTEM = '1';
delete process.env.GIT_AUTHOR_EMAIL;
delete process.env.GIT_DIR;
delete process.env.GIT_WORK_TREE;

// Hooks do their .cortex/ regeneration in process during tests, so no background process outlives
// a test and writes into a temp repository being deleted (the test of the background path opts out).
process.env.CORTEX_FOREGROUND = '1';

// Nor a developer's downloaded embedding models: the embedding tests write their own.
process.env.CORTEX_MODEL_CACHE = '/nonexistent/cortex-models';
process.env.HF_HUB_CACHE = '/nonexistent/hf-hub';
