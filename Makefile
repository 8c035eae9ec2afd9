# swift-suggest: the two commands of the README, and a few more.
#   make demo         installs what is missing, builds, and runs `suggest-demo` (what `suggest demo` prints)
#   make test         installs what is missing, builds, and runs the tests of the engine, its providers, the CLI,
#                     the kit and the plugins (no SwiftNIO, Hummingbird or postgres-nio is fetched or compiled)
#   make serve        builds `suggest` with the opt-in server side (package trait `Server`) in .build-server and runs
#                     `suggest serve` on the demo configuration (PORT=8080), its search page at http://127.0.0.1:PORT/
#   make test-server  the server side's tests (trait `Server`, .build-server): SuggestServer, SuggestRemote,
#                     SuggestPostgres, `suggest serve`/`import`; PostgreSQL is installed if missing and a throwaway
#                     cluster runs the database tests (none skipped), then the reconnection test once more while the
#                     real server is stopped and restarted
#   make test-browser the demo search page (`suggest serve --demo-page`) in a headless Chromium; installs chromium,
#                     chromium-driver and selenium if missing; screenshots in .build-server/browser-artefacts/
#   make test-plugin  Tests/PluginExample, a package that applies SuggestIndexPlugin as an app does (its own build)
#   make docs         builds the DocC documentation of every library module, DocC warnings counted as errors
#                     (docs-light: the light modules only)
SWIFT ?= swift
# The server side builds in a folder of its own, so that switching between the two keeps both warm.
SERVER_FLAGS = --traits PCRE2,Server --scratch-path .build-server
PORT ?= 8080

.PHONY: setup demo test serve test-server test-browser test-no-pcre2 test-plugin build release bench validate fuzz docs docs-light docs-server clean

# libpcre2-dev (Debian/Ubuntu) or pcre2 (macOS with Homebrew), and pkg-config, if missing.
setup:
	@if [ "$$(uname)" = "Darwin" ]; then \
	  pkg-config --exists libpcre2-8 2>/dev/null || brew install pcre2 pkg-config; \
	elif ! pkg-config --exists libpcre2-8 2>/dev/null; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libpcre2-dev pkg-config; \
	fi

build: setup
	$(SWIFT) build

# A release build, so that the per-keystroke times it prints are the real ones.
demo: setup
	$(SWIFT) run -c release suggest-demo

test: setup
	$(SWIFT) test
	$(SWIFT) package suggest-validate

serve: setup
	$(SWIFT) build -c release $(SERVER_FLAGS) --product suggest
	.build-server/release/suggest serve --config Sources/SuggestDemo/Resources/demo/demo.suggest.json --port $(PORT) \
	  --demo-page

# The server side's tests against a throwaway cluster on 127.0.0.1:$${SUGGEST_PG_PORT:-54329}, stopped on exit; then
# the reconnection test alone with the real server stopped and started (other tests would see it gone), the users
# database suites by themselves, and the closed-WebSocket memory test by itself.
SERVER_TESTS = SuggestServerTests|SuggestRemoteTests|SuggestPostgresTests|ImportCommandTests
# The users database suites (two replicas, 64 clients, spawned servers), run by themselves last: their load would
# slow the timing-sensitive tests (rate limits, breakers) beside them.
ALONE_TESTS = UsersDatabase
# Of those, the two built replicas with 64 clients and the database paused for 10 s in the middle, run after the
# others: beside them, another suite's submit went unconfirmed for its whole 10 s wait (answered `stored: false`),
# and once a replica's first keystroke found its connection closed unanswered while the other suites ran.
REPLICA_TESTS = UsersDatabaseReplicaProcess
# Counts process-wide objects, so nothing else may run beside it.
COUNTING_TESTS = ClosedWebSocketMemory
test-server: setup
	bash .ci/postgres.sh install
	set -e; eval "$$(bash .ci/postgres.sh start)"; trap 'bash .ci/postgres.sh stop' EXIT; \
	  SUGGEST_REQUIRE_POSTGRES=1 $(SWIFT) test $(SERVER_FLAGS) --filter '$(SERVER_TESTS)' --skip '$(ALONE_TESTS)|$(COUNTING_TESTS)'; \
	  SUGGEST_TEST_POSTGRES_CTL="bash $(CURDIR)/.ci/postgres.sh" \
	    $(SWIFT) test $(SERVER_FLAGS) --skip-build --filter itReconnectsWhenTheDatabaseIsBack; \
	  $(SWIFT) test $(SERVER_FLAGS) --skip-build --filter '$(ALONE_TESTS)' --skip '$(REPLICA_TESTS)'; \
	  $(SWIFT) test $(SERVER_FLAGS) --skip-build --filter '$(REPLICA_TESTS)'; \
	  $(SWIFT) test $(SERVER_FLAGS) --skip-build --filter '$(COUNTING_TESTS)'

# Tests/Browser/search_page_test.py: starts `suggest serve --demo-page` and drives the page in a headless Chromium
# (as root too: --no-sandbox); every wait has a timeout and the run stops itself after 300 s.
test-browser: setup
	bash .ci/browser.sh install
	$(SWIFT) build $(SERVER_FLAGS) --product suggest
	bash .ci/browser.sh run

# Token rules, recent-search exclusions and pattern matching without libpcre2 (Swift Regex backend, as in iOS apps), in its own folder.
test-no-pcre2:
	$(SWIFT) test --scratch-path .build-nopcre2 --disable-default-traits --filter 'SuggestTokensTests|SuggestPatternTests|SuggestRecentsTests|SuggestPopularTests'

# The build-tool plugin, applied by a package of its own: applied here, SwiftPM would build its tool before every build.
test-plugin: setup
	$(SWIFT) test --package-path Tests/PluginExample

release: setup
	$(SWIFT) build -c release

bench: setup
	bash Benchmarks/Scripts/make-corpus.sh
	cd Benchmarks && $(SWIFT) package benchmark --no-progress --time-units microseconds

# libFuzzer targets (Tests/Fuzz, its own package): the configuration parser, a dictionary, a `suggest batch` line, a
# token rule and text, a saved index. Each runs FUZZ_SECONDS (default 600) on its committed corpus
# (Tests/Fuzz/Corpus/TARGET), which gains the inputs that add coverage; a finding stops with libFuzzer's report and a
# non-zero status. Each target is built as its own product: the main package's plugin tool (SuggestIndexBuilder)
# has a `main` of its own, which does not link with libFuzzer's. The coverage flags are explicit: with Swift 6.3,
# `--sanitize=fuzzer` alone leaves the code uninstrumented (libFuzzer then says "Is the code instrumented for
# coverage?" and mutates blindly).
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= FuzzConfiguration FuzzDictionaryLine FuzzBatchLine FuzzTokenRule FuzzIndexFile
FUZZ_BUILD = -c debug --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address \
	-Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
fuzz: setup
	cd Tests/Fuzz && for target in $(FUZZ_TARGETS); do $(SWIFT) build $(FUZZ_BUILD) --product $$target || exit 1; done
	for target in $(FUZZ_TARGETS); do bash Tests/Fuzz/run-fuzz.sh $$target $(FUZZ_SECONDS) || exit 1; done

# Every public module's documentation: one `generate-documentation` for the light modules (docs-light: one build of
# their symbol graphs, about 2 minutes), one for the server side (docs-server: trait `Server`, in .build-server);
# archives in .build*/plugins/Swift-DocC/outputs/. Not part of `make test`.
DOCS_TARGETS ?= Suggest SuggestCore SuggestPattern SuggestTokens SuggestRecents SuggestPopular SuggestIndex SuggestPrefix SuggestFuzzy SuggestTesting SuggestValidation SuggestWire SuggestBench SuggestUI
SERVER_DOCS_TARGETS ?= SuggestServer SuggestRemote SuggestPostgres
docs: docs-light docs-server

docs-light: setup
	$(SWIFT) package generate-documentation $(foreach target,$(DOCS_TARGETS),--target $(target)) --warnings-as-errors

docs-server: setup
	$(SWIFT) package $(SERVER_FLAGS) generate-documentation $(foreach target,$(SERVER_DOCS_TARGETS),--target $(target)) --warnings-as-errors

validate: build
	$(SWIFT) package suggest-validate

clean:
	rm -rf .build .build-server .build-nopcre2
