# swift-suggest: the two commands of the README, and a few more.
#   make demo   installs what is missing, builds, and runs `suggest demo`
#   make test   installs what is missing, builds, and runs the tests (the PostgreSQL ones are skipped)
#   make test-postgres  also installs PostgreSQL if missing, starts a throwaway cluster (.ci/postgres.sh), runs the
#               SuggestPostgres tests against it (SUGGEST_REQUIRE_POSTGRES=1: none skipped), the reconnection test
#               once more stopping and restarting the real server, and stops it
#   make docs   builds the DocC documentation of every library module, DocC warnings counted as errors
SWIFT ?= swift

.PHONY: setup demo test test-postgres test-no-pcre2 build release bench validate fuzz docs clean

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
	$(SWIFT) run -c release suggest demo

test: setup
	$(SWIFT) test
	$(SWIFT) package suggest-validate

# The PostgreSQL provider's tests against a throwaway cluster on 127.0.0.1:$${SUGGEST_PG_PORT:-54329}, stopped on exit;
# then the reconnection test alone with the real server stopped and started (other tests would see it gone).
test-postgres: setup
	bash .ci/postgres.sh install
	set -e; eval "$$(bash .ci/postgres.sh start)"; trap 'bash .ci/postgres.sh stop' EXIT; \
	  SUGGEST_REQUIRE_POSTGRES=1 $(SWIFT) test --filter 'SuggestPostgresTests|ImportCommandTests'; \
	  SUGGEST_TEST_POSTGRES_CTL="bash $(CURDIR)/.ci/postgres.sh" $(SWIFT) test --skip-build --filter itReconnectsWhenTheDatabaseIsBack

# The token provider without libpcre2 (Swift Regex backend, as in iOS apps), in its own build folder.
test-no-pcre2:
	$(SWIFT) test --scratch-path .build-nopcre2 --disable-default-traits --filter SuggestTokensTests

release: setup
	$(SWIFT) build -c release

bench: setup
	bash Benchmarks/Scripts/make-corpus.sh
	cd Benchmarks && $(SWIFT) package benchmark --no-progress --time-units microseconds

# libFuzzer targets (Tests/Fuzz, its own package): the configuration parser, a dictionary, a `suggest batch` line, a
# token rule and text. Each runs FUZZ_SECONDS (default 600) on its committed corpus (Tests/Fuzz/Corpus/TARGET),
# which gains the inputs that add coverage; a finding stops with libFuzzer's report and a non-zero status.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= FuzzConfiguration FuzzDictionaryLine FuzzBatchLine FuzzTokenRule
fuzz: setup
	cd Tests/Fuzz && $(SWIFT) build -c debug --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address
	for target in $(FUZZ_TARGETS); do bash Tests/Fuzz/run-fuzz.sh $$target $(FUZZ_SECONDS) || exit 1; done

# One `generate-documentation` for all modules (one build of their symbol graphs); archives in
# .build/plugins/Swift-DocC/outputs/. Not part of `make test`: it builds the symbol graphs again.
DOCS_TARGETS ?= Suggest SuggestCore SuggestTokens SuggestRecents SuggestIndex SuggestPrefix SuggestFuzzy SuggestTesting SuggestValidation SuggestWire SuggestPostgres SuggestRemote SuggestServer
docs: setup
	$(SWIFT) package generate-documentation $(foreach target,$(DOCS_TARGETS),--target $(target)) --warnings-as-errors

validate: build
	$(SWIFT) package suggest-validate

clean:
	rm -rf .build
