package capture_test

import "testing"

// TestSupersessionReadsTheClause (issue 29): the clause reader of
// supersede_clause.go and the markers that read a head or an object —
// the scope of a negation "anymore" closes, whose an older memory is (its
// subject, not a party in a prepositional or comitative phrase), the head
// of a new value, a copula's head with "now", things taken out of use —
// each through Capture with a look-alike beside it: want is the index of
// the older message the update supersedes, -1 none.
func TestSupersessionReadsTheClause(t *testing.T) {
	cases := []supersedeCase{
		// negation scope: the words after "anymore" are another clause
		{[]string{"I go bouldering at Seoul Forest every Friday.", "My shoulder physio is Dr. Kang."}, "i dont go bouldering on fridays anymore my shoulder is bad", 0},
		{[]string{"I'm in the Mapo running crew.", "My knee brace is from Decathlon."}, "Not running with the crew anymore, my knee brace broke.", 0},
		// whose the memory is: a party in a phrase is not its subject
		{[]string{"I'm renting a studio in Hapjeong from my cousin until May."}, "The Hapjeong studio lease is over, I'm moving next month.", 0},
		{[]string{"My cousin rents a studio in Hapjeong."}, "The Hapjeong studio lease is over, I'm moving next month.", -1},
		{[]string{"친구랑 매주 토요일에 배드민턴 쳐요"}, "배드민턴 그만뒀어요", 0},
		{[]string{"친구는 매주 토요일에 배드민턴 쳐요"}, "배드민턴 그만뒀어요", -1},
		// the new value's head is the slot it fills
		{[]string{"I'm on the early shift at the bakery.", "The bakery opens at 6."}, "Switched to late shifts this month.", 0},
		{[]string{"I work the late shift at the bakery."}, "Switched to late shifts.", -1},
		// a copula's head noun with "now"; a pronoun head leaves the clause to another marker
		{[]string{"Our standup is at 9:30 every morning.", "Lunch is at noon."}, "The standup is at 10 now.", 0},
		{[]string{"I take 20 mg of Lexapro every night.", "My sister takes vitamins."}, "Saw the doctor, it's 10 mg now instead of 20.", 0},
		// the old value in an apposition ("now, not X")
		{[]string{"Our monorepo builds everything with npm workspaces.", "I use yarn for my side projects."}, "We build the monorepo with pnpm now, not npm.", 0},
		{[]string{"I have a bad knee."}, "It's fine now, not bad at all.", -1},
		// a thing taken out of use, a role left, a course withdrawn, an old value back
		{[]string{"My laptop is a Dell XPS 13.", "My monitor is an LG UltraFine."}, "Retired the Dell, I use a Framework now.", 0},
		{[]string{"I eat bread with every meal.", "My brother bakes bread."}, "I've cut out bread for good.", 0},
		{[]string{"I coach the under-10 football team on Saturdays.", "I work at Naver."}, "I stepped down from coaching the football team.", 0},
		{[]string{"I write everything in Emacs."}, "I've gone back to Vim after a year.", 0},
		{[]string{"이번 학기 통계학 수업 수강 중이에요", "아내는 요즘 요리 수업 들어요"}, "통계학 수업은 수강 철회했어요", 0},
		{[]string{"1Password 가족 플랜 써요"}, "1Password 해지하고 Bitwarden으로 갈아탔어요", 0},
		// look-alikes
		{[]string{"I go to the office on Mondays."}, "The power cut out at the office.", -1},
		{[]string{"I live in Busan."}, "It's 3pm now, heading out.", -1},
	}
	runSupersedeCases(t, cases)
}
