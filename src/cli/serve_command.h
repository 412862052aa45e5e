#pragma once
// `topdown serve`: count continuously and serve the last interval's
// breakdown to Prometheus (docs/serve.md).
#include <CLI/CLI.hpp>
#include <string>

#include "serve/listen_address.h"
#include "settings/options.h"

namespace topdown::cli {

struct ServeOptions {
  // The model, what is counted (-a, -C, -p, -G), -I, --per-*, -l and
  // --kernel, as stat takes them.
  settings::StatOptions stat;
  std::string listen{serve::kDefaultListen};
  std::string web_config;  // --web-config FILE: TLS, users, headers (docs/serve.md)
};

// Adds the subcommand and its options to `app`, filling `options`.
CLI::App* add_serve_command(CLI::App& app, ServeOptions& options);

// Serves until SIGTERM or SIGINT (exit status 0) or until the processes of
// -p have all exited. Throws Error for bad options, a web configuration
// that cannot be used, a model that cannot count here or an address it
// cannot listen on.
int run_serve(const ServeOptions& options);

}  // namespace topdown::cli
