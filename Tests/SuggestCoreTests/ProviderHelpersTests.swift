import SuggestCore
import Testing


