public import SuggestPattern

/// Searches that are never remembered: `SearchExclusion` (SuggestPattern), which the popular-searches provider applies too.
public typealias RecentsExclusion = SearchExclusion
