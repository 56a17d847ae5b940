// Closed-class English vocabulary the judge needs: function words, framing, negation,
// quantifiers and comparatives. General English only, never words of a particular document.

const words = (text: string): Set<string> => new Set(text.trim().split(/\s+/));

/** Function words and very general verbs/nouns that carry no checkable fact on their own. */
export const stopwords = words(`
a an the and or but nor so yet of in on at to for from by with without within about into onto over under
up down out off than then as if that this these those there here it its it's they them their theirs
he him his she her hers we us our ours you your yours i me my mine who whom whose which what when where
why how is are was were be been being am do does did doing done have has had having will would shall
should can could may might must also too very just still even really quite rather already again ever
s 's 't not no yes ll 're 've 'd 'll 'm get got getting gets go goes going went gone make makes made
thing things way something anything everything one ones some any such own same other another
each both either neither all every per via upon while whereas though although because since until
till unless whether however therefore thus hence i.e. e.g. etc well like lot lots bit
`);

/** Words that refer to the sources or the conversation itself rather than to the facts. */
export const framingWords = words(`
answer question policy document documents source sources page text article summary manual notes note
terms agreement guide faq information info according per say says said state states stated mention
mentions mentioned list lists listed show shows shown indicate indicates specify specifies specified
explain explains based sure course glad happy help hope luck good great news unfortunately sadly
afraid fortunately actually basically simply generally typically usually okay ok thanks thank please
`);

/** Tokens that negate what follows in their clause. */
export const negators = words(`not no never none nobody nothing nowhere neither nor n't cannot without`);

/** Universal quantifiers: they claim there is no condition or exception. */
export const universals = words(
  `all always every everyone everybody everything any anyone anybody anytime whichever whatever whenever both each entire entirely unconditionally regardless automatically`,
);

/** Restrictions in a source sentence that a universal claim would drop. */
export const restrictions = words(
  `only unless except excluding provided providing if when whose who that as long subject exclusively solely`,
);

/** Common English contractions, expanded before matching. */
export const contractions: Record<string, string> = {
  "n't": 'not',
  "'re": 'be',
  "'s": 's',
  "'ve": 'have',
  "'ll": 'will',
  "'d": 'would',
  "'m": 'be',
  "won't": 'will not',
  "can't": 'can not',
  "shan't": 'shall not',
};

/** Openers and closers that are courtesy, never facts (matched case-insensitively at a clause's start). */
/** "the sources do not answer", "the email doesn't mention": an answer saying its source is silent. */
export const sourceSilence =
  /(?:sources?|documents?|email|e-mail|letter|policy|terms|page|notes|manual|guide|article|minutes|contract|faq|information)\s+(?:do|does|did)(?:n['’]t| not) (?:answer|say|cover|mention|specify|state)\b/i;

export const courtesyPatterns: RegExp[] = [
  /^(sure|certainly|absolutely|of course|great|good|nope|yep|yeah|yes|no|ok|okay|alright|sadly|unfortunately|fortunately|happily|good news|bad news|thanks|thank you)\b[\s!,.:;—–-]*$/i,
  /^(good|great|excellent) question\b/i,
  // Congratulations, sympathy and reassurance ("Congratulations on the new puppy!", "Sorry to hear that", "That sounds
  // stressful", "Don't worry") speak to the reader, not of the sources.
  /^(?:congratulations|congrats)\b[^.!?]*$/i,
  /^(?:don't|do not) (?:worry|panic|stress)\b[^.!?]*$/i,
  /^(?:(?:i'm|i am) )?(?:so |really )?sorry to hear (?:that|about)\b[^.!?]*$/i,
  /^(?:that|this|it)(?:'s| is| sounds| must be| can be| must feel)(?: (?:a|an|really|very|so|such a|such an|understandably|incredibly|quite))* (?:stressful|frustrating|annoying|worrying|upsetting|difficult|tough|hard|awkward|disappointing|exciting|lovely|wonderful)(?: (?:situation|time|news|position|thing|one))?$/i,
  /^(i'm|i am) (afraid|sorry|happy|glad)\b[^.]*$/i,
  /^(let me know|feel free|hope (this|that) helps|i hope|happy to help|glad to help|if you have (any )?(other|more|further) questions)/i,
  /^(please )?(contact|ask|check with|reach out to|talk to|speak (to|with)|consult)\b/i,
  // "The email doesn't say anything about …": what the source leaves out, which no passage can show.
  new RegExp(`^the ${sourceSilence.source}`, 'i'),
  // "Here's the gist", "Here are the highlights from the meeting": what follows is the answer; this says only that it comes.
  /^here(?:['’]s| is| are) (?:the|a|an|your|some)(?: (?:quick|short|brief|main|key))? (?:gist|rundown|summary|overview|breakdown|lowdown|short version|answer|run-through|highlights|points|details)\b(?: (?:from|of|for|on) [^.!?]*)?[\s!,.:;—–-]*$/i,
];

/**
 * Roles that tie a person or a body to a work, a place or an organisation. Words of one group name
 * the same relation ("wrote", "writer", "author"); words of two groups name two relations, so
 * "designed by X" where the sources say "edited by X" gives X another role. Generic verbs of making
 * ("create", "make") are in no group: they fit any role. General English only.
 */
export const roleGroups: string[][] = [
  'write writer author co-write cowrite screenwriter lyricist pen compose composer',
  'direct director co-direct',
  'produce producer co-produce',
  'publish publisher',
  'develop developer',
  'found founder co-found cofound establish',
  'own owner co-own',
  'administer administrator manage manager operate operator run',
  'star actor actress portray co-star costar',
  'sing singer vocalist',
  'design designer architect',
  'edit editor',
  'illustrate illustrator',
  'invent inventor',
  'coach',
  'host presenter',
  'distribute distributor',
  'marry wife husband spouse',
  'win winner',
  'describe',
  'choreograph choreographer',
  'from native hometown hail',
].map((group) => group.split(' '));
