package recall

// Counting questions ("how many times did I go climbing this year?", "보리
// 올해 병원 몇 번 갔어?") ask for every occurrence of one kind of event, and
// the occurrences are alike by nature: four climbing sessions read like
// one another. Two of the selection's defaults work against such a
// question: MMR's diversity term ranks the third climbing session below an
// unrelated memory because it resembles the first two, and merge's
// fact/semantic quota seats a weak memory of one kind over a strong one of
// the other. A counting question therefore selects by final score alone:
// λ = 1 in mmr (near-duplicates still dropped) and no quota in merge. The
// mmr and merge stages say so in their notes (counting).

// countMarkers are the phrases with which a query asks how many times
// (English whole words, Korean substrings, as hasMarker matches them).
var countMarkers = [...]string{
	"how many times", "how often", "how many visits", "number of times",
	"몇 번", "몇번", "몇 회", "몇회", "몇 차례",
}

// countingQuery returns the marker by which text asks how many times, or "".
func countingQuery(text string) string {
	t := intentText(text)
	for _, w := range countMarkers {
		if hasMarker(t, w) {
			return w
		}
	}
	return ""
}
