// Retrying an episode (SPEC section 10, issue 14): an operator command that ends nothing and
// starts the expectation again through a deferred trigger request, as is or with an edited input
// checked against the expectation's schema. Above episodes/ and trigger-requests/, which it joins
// (the deferred queue starts episodes, so episodes/ must not import it).
export {
  retryEpisode,
  retryEpisodes,
  type RetryEpisodeOptions,
  type RetryEpisodesOptions,
} from "./retry-episodes";
export {
  retryEpisodeWithInput,
  type RetryEpisodeWithInputOptions,
  type RetryEpisodeWithInputResult,
} from "./retry-episode-with-input";
