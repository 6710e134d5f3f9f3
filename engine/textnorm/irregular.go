package textnorm

// irregularEN maps English irregular past tenses and past participles to
// their base form, so that "went" and "go", "bought" and "buy" are one term:
// a question asks "what did Caroline buy", the memory says "I bought".
// Porter2 strips only regular endings; term applies this table before it,
// for the index and the query alike. Forms that are also common nouns,
// adjectives or names ("left", "fell", "saw", "rose", "found", "lay",
// "ground", "bit", "shot", "led", "fed", "drew", "broke", "frozen") are
// left alone, and so are "did" and "done" ("do" is a stop word: "done"
// would stop matching itself). Korean needs no table: its verb endings are
// stripped with the particles (stripKorean).
var irregularEN = map[string]string{
	"went": "go", "gone": "go",
	"felt": "feel", "bought": "buy", "made": "make", "took": "take", "taken": "take",
	"ran": "run", "ate": "eat", "eaten": "eat", "met": "meet", "wrote": "write", "written": "write",
	"won": "win", "lost": "lose", "began": "begin", "begun": "begin", "gave": "give", "given": "give",
	"got": "get", "gotten": "get", "came": "come", "told": "tell", "thought": "think",
	"taught": "teach", "sold": "sell", "built": "build", "drawn": "draw",
	"drove": "drive", "driven": "drive", "flew": "fly", "flown": "fly", "grew": "grow", "grown": "grow",
	"knew": "know", "known": "know", "paid": "pay", "sang": "sing", "sung": "sing", "sat": "sit",
	"spent": "spend", "swam": "swim", "swum": "swim", "wore": "wear", "worn": "wear", "kept": "keep",
	"held": "hold", "caught": "catch", "chose": "choose", "chosen": "choose",
	"broken": "break", "brought": "bring", "sent": "send", "heard": "hear", "learnt": "learn",
	"slept": "sleep", "spoke": "speak", "spoken": "speak", "stood": "stand", "understood": "understand",
	"woken": "wake", "seen": "see", "rode": "ride", "ridden": "ride", "hid": "hide",
	"hidden": "hide", "forgot": "forget", "forgotten": "forget", "threw": "throw", "thrown": "throw",
	"shook": "shake", "shaken": "shake", "stole": "steal",
	"stolen": "steal", "blew": "blow", "blown": "blow",
	"fought": "fight", "sought": "seek", "dealt": "deal", "meant": "mean", "became": "become",

	"swore": "swear", "sworn": "swear",
	"torn": "tear", "wept": "weep",
}
