import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fires, flagged, validate } from './support.js';

/** Each opener before a fact is courtesy: the fact is the answer's only claim. */
async function onlyTheFactIsAClaim(openers: string[]): Promise<void> {
  for (const opener of openers) {
    const result = await validate('What do I get on Basic?', `${opener} The Basic plan costs $12 per month.`);
    assert.deepEqual(
      result.claims.map((c) => c.text),
      ['The Basic plan costs $12 per month'],
      opener,
    );
  }
}

describe('strict on specifics', () => {
  it('supports a figure stated in the sources and contradicts another value', async () => {
    assert.equal((await validate('How much is Basic?', 'The Basic plan costs $12 a month.')).issue_count, 0);
    const wrong = await validate('How much is Basic?', 'The Basic plan costs $15 a month.');
    assert.equal(wrong.claims[0]?.status, 'contradicted');
    assert.equal(wrong.severity, 'high');
  });
  it('accepts figures written in words', async () => {
    assert.equal(
      (
        await validate(
          'How long do I have to ask for a refund?',
          'You can get an annual subscription refunded within thirty days of the purchase.',
        )
      ).issue_count,
      0,
    );
  });
  it('checks dates', async () => {
    assert.equal((await validate('When did the Tartu office open?', 'The Tartu office opened on March 4, 2019.')).issue_count, 0);
    assert.ok((await validate('When did the Tartu office open?', 'The Tartu office opened on 4 May 2019.')).issue_count > 0);
  });
  it('checks names', async () => {
    assert.ok((await validate('Who founded the company?', 'The company was founded by Maria Berg in Oslo.')).issue_count > 0);
    assert.equal((await validate('Who founded the company?', 'Ingrid Berg founded it in 2011.')).issue_count, 0);
  });
  it('checks negation', async () => {
    assert.ok(fires('negation_clash', 'Can I get a refund on a monthly subscription?', 'Monthly subscriptions are refundable.'));
    assert.ok(!fires('negation_clash', 'Can I get a refund on a monthly subscription?', "Monthly subscriptions aren't refundable."));
    assert.equal(
      (await validate('Can I get a refund on a monthly subscription?', "Monthly subscriptions aren't refundable.")).issue_count,
      0,
    );
  });
  it('takes a denial the sources also make as theirs, though another passage asserts the word for another case', () => {
    const cafe = [
      'Dogs. Dogs on a lead are allowed in the café garden. Dogs are not allowed inside the café itself.',
      'Booking. There is a booking fee of £5 for tables of eight or more. Smaller tables can be booked without a booking fee.',
    ].join('\n');
    assert.ok(!fires('negation_clash', 'Can I bring my dog inside?', "Dogs aren't allowed inside the café.", cafe));
    assert.ok(!fires('negation_clash', 'Is there a fee to book for four?', "There's no booking fee for a table of four.", cafe));
    // Without the denying passage, the asserting one still contradicts the denial.
    const gardenOnly = 'Dogs. Dogs on a lead are allowed in the café garden.';
    assert.ok(fires('negation_clash', 'Can my dog sit in the garden?', "Dogs aren't allowed in the café garden.", gardenOnly));
  });
  it("takes the passage that states the claim's predicate of its own subject over one that denies it of another", () => {
    const marinas = [
      'Westcombe Marina provides shore power on its visitor berths.',
      'Eastcombe Marina does not provide shore power on its visitor berths.',
    ].join('\n');
    const q = 'Is there shore power at the marinas?';
    assert.ok(!fires('negation_clash', q, 'At Westcombe Marina, the visitor berths have shore power provided.', marinas));
    assert.ok(fires('negation_clash', q, 'At Eastcombe Marina, the visitor berths have shore power provided.', marinas));
    // Without the agreeing passage, the denial about the other marina still clashes.
    const eastOnly = 'Berths. Eastcombe Marina does not provide shore power on its moorings.';
    assert.ok(fires('negation_clash', q, 'Westcombe Marina provides shore power on its moorings.', eastOnly));
  });
  it("reads a heading as asserting nothing, and a denial inside the claim's own condition as denying nothing", () => {
    const courts = 'COURT BOOKINGS BY PHONE\nThe phone line is for membership questions only. Courts are booked online.';
    assert.ok(
      !fires('negation_clash', 'Can I book a court by phone?', "You can book online, though you can't book courts by phone.", courts),
    );
    const classes = 'Cancelling after the cut-off is a late cancellation and costs £3.';
    assert.ok(!fires('negation_clash', 'What is a late cancellation?', "If you don't cancel in time, it's a late cancellation.", classes));
    assert.ok(fires('negation_clash', 'What is a late cancellation?', "Cancelling after the cut-off isn't a late cancellation.", classes));
  });
  it('takes "neither is", "not a" and "…, not X" as the denials they share with the sources', () => {
    assert.ok(
      !fires(
        'negation_clash',
        'Can I check in early on a Friday?',
        "It isn't available on Fridays.",
        'Early check-in from 1pm can be arranged, but neither is available on Fridays.',
      ),
    );
    assert.ok(!fires('negation_clash', 'Was there a recount?', 'Not a full recount, no.', 'No full recount was requested.'));
    const pin = 'A PIN can be reset at the desk or by phone, but not online.';
    assert.ok(!fires('negation_clash', 'How do I reset my PIN?', 'It can be reset at the desk, not online.', pin));
    assert.ok(fires('negation_clash', 'How do I reset my PIN?', 'It can be reset online.', pin));
  });
  it('reads "not in …" and "…, but not your …" as setting a place or a thing apart, and an adjective before its noun as no assertion', () => {
    const bins = 'Garden waste. The green garden bin takes grass and leaves; batteries go to the library drop-off.';
    assert.ok(!fires('negation_clash', 'Where do batteries go?', 'Not in the green garden bin.', bins));
    const cap = 'The cap covers extra charges, but not your monthly fee.';
    assert.ok(!fires('negation_clash', 'What does the cap cover?', "What it doesn't cover is your monthly fee.", cap));
    assert.ok(fires('negation_clash', 'What does the cap cover?', "It doesn't cover extra charges.", cap));
    const heaters = 'The HX-2 looks like the HX-1 but has a different switch and is not affected.';
    assert.ok(!fires('negation_clash', 'Is my model recalled?', 'It looks like the affected heaters but has a different switch.', heaters));
  });
  it('reads a light verb ("make", "get") as the predicate a negator denies', () => {
    const orders = 'Orders: new orders cannot be made by phone; new customers are welcome.';
    assert.ok(!fires('negation_clash', 'Can I order by phone?', "You can't make new orders by phone.", orders));
    assert.ok(
      fires('negation_clash', 'Can I order by phone?', "You can't make new orders by phone.", 'Orders: new orders can be made by phone.'),
    );
    const updates = 'Old tablets can keep the app but will get no further updates.';
    assert.ok(!fires('negation_clash', 'Will my old tablet update?', "Old tablets won't get any further updates.", updates));
  });
  it('reads "can\'t … more than" as a limit, not a denial', () => {
    const lease = 'Rent. The landlord may raise the rent no more than once a year.';
    const q = 'How often can the rent go up?';
    assert.ok(!fires('negation_clash', q, "The landlord can't raise the rent more than once a year.", lease));
    assert.ok(fires('negation_clash', q, "The landlord can't raise the rent.", lease));
  });
  it('reads a claim limited by "provided" as asserting nothing outright', () => {
    const warranty = 'Warranty. Kettles have a two-year warranty. The warranty does not cover accidental damage.';
    const q = 'My kettle broke. Is it covered?';
    assert.ok(!fires('negation_clash', q, "Your kettle is covered, provided the fault isn't accidental damage.", warranty));
    assert.ok(fires('negation_clash', q, 'Your kettle is covered for accidental damage.', warranty));
  });
  it('reads "…, but not X" as denying the predicate of its sentence for X alone', () => {
    const ferry = 'Tickets. The kiosk takes coins and contactless cards, but not banknotes.';
    assert.ok(!fires('negation_clash', 'Can I pay with a banknote?', "Banknotes aren't taken at the kiosk.", ferry));
    assert.ok(fires('negation_clash', 'Can I pay by card?', "Contactless cards aren't taken at the kiosk.", ferry));
  });
  it('reads a negative subject ("Nothing may be", "no one can") as denying its verb', () => {
    const pier = 'Pier. Nothing may be left on the pier overnight. No one can fish from the pier after dark.';
    assert.ok(!fires('negation_clash', 'Can I leave my bike on the pier?', "You can't leave anything on the pier overnight.", pier));
    assert.ok(fires('negation_clash', 'Can I leave my bike on the pier?', 'You can leave your bike on the pier overnight.', pier));
    assert.ok(fires('negation_clash', 'Can I fish at night?', 'Anyone can fish from the pier after dark.', pier));
    // An object ("costs nothing") is left to the object reading.
    assert.ok(
      !fires('negation_clash', 'Is the pier free?', 'Walking on the pier costs nothing.', 'Pier. Walking on the pier costs nothing.'),
    );
  });
  it('reads a denial inside a condition ("assuming it is not") as denying nothing outright', () => {
    const pool =
      'Lanes. The fast lane is open from 6am to 9am on weekdays. On weekends and national holidays there is no fast lane, so the whole pool is charged at the family rate.';
    const q = 'Can I swim in the fast lane at 7am on a Wednesday?';
    assert.ok(!fires('negation_clash', q, "Assuming it isn't a national holiday, the fast lane is open at 7am on a Wednesday.", pool));
    assert.ok(fires('negation_clash', q, "The fast lane isn't open at 7am on a Wednesday.", pool));
  });
  it('reads "Not if …" as denying the predicate the question asked about, not the condition', () => {
    const gym =
      '6.2 If you leave during the first year, a cancellation fee of £40 applies. There is no cancellation fee if you are moving abroad and you hand your key fob back to reception.';
    const q = 'If I move abroad, do I have to pay the cancellation fee?';
    assert.ok(!fires('negation_clash', q, 'Not if you hand your key fob back to reception.', gym));
    assert.ok(fires('negation_clash', q, "You don't hand your key fob back to reception.", gym));
  });
  it('reads "started by X" and "cannot be started after X" as one deadline', () => {
    const course = 'Enrolment. Courses cannot be joined after 15 March. Fees are due on enrolment.';
    const q = 'When can I join the pottery course?';
    assert.ok(!fires('negation_clash', q, 'You can join a course, but it has to be joined by 15 March.', course));
    assert.ok(fires('negation_clash', q, 'You can join a course after 15 March.', course));
  });
  it('reads a denial inside "during which" or a restrictive "who" clause as describing, not denying', () => {
    const club = [
      'Matches. The first week of the season is a trial week, during which new members may not play in league matches.',
      'Members who join after June and do not attend a trial session must pay a £20 assessment fee.',
    ].join(' ');
    const q = 'Can I play in league matches?';
    assert.ok(!fires('negation_clash', q, 'Yes, as a member you can play in league matches once the trial week is over.', club));
    assert.ok(
      !fires(
        'negation_clash',
        'What if I join in July?',
        'If you join in July and attend a trial session, you pay no assessment fee.',
        club,
      ),
    );
    // A denial in the main clause still clashes.
    const plain = 'Matches. New members may not play in league matches.';
    assert.ok(fires('negation_clash', q, 'As a new member you can play in league matches.', plain));
  });
  it('reads a denial with a condition after it, or inside "as long as" or "before you…", as no outright denial', () => {
    const kiln = [
      'Kiln. Students may not fire their own pots if they have not finished the safety course.',
      'You can get a refund as long as you have not used the kiln yet.',
      'The kiln stays hot: do not open it for 2 hours.',
    ].join(' ');
    assert.ok(
      !fires('negation_clash', 'Can I fire my pots?', 'Students who have finished the safety course may fire their own pots.', kiln),
    );
    assert.ok(!fires('negation_clash', 'Can I get a refund?', 'Because you have used the kiln, you cannot get a refund.', kiln));
    assert.ok(!fires('negation_clash', 'When can I open the kiln?', 'Wait at least 2 hours before you open it.', kiln));
    // Without the condition the denial stands.
    const plain = 'Kiln. Students may not fire their own pots.';
    assert.ok(fires('negation_clash', 'Can I fire my pots?', 'Students may fire their own pots.', plain));
  });
  it('reads "no X needed", "declined to" and a contrast after a comma as what they deny, no more', () => {
    const museum = 'Audio guides. Free for members, no booking needed. The board declined to extend the opening hours.';
    assert.ok(!fires('negation_clash', 'Do I book an audio guide?', "Members don't need to book an audio guide.", museum));
    assert.ok(fires('negation_clash', 'Do I book an audio guide?', 'Members need to book an audio guide.', museum));
    assert.ok(!fires('negation_clash', 'Will the hours change?', "The board wouldn't extend the opening hours.", museum));
    assert.ok(fires('negation_clash', 'Will the hours change?', 'The board will extend the opening hours.', museum));
    const glaze = 'Glazing. Dip pots with dry hands, not wet ones.';
    assert.ok(!fires('negation_clash', 'How do I glaze?', 'Dip your pots with dry hands rather than wet ones.', glaze));
  });
  it('reads "no longer" against "currently" as a change over time, not a clash', () => {
    const news = 'Ferry. Islanders currently have to change boats at Holm pier, the council said. A direct service starts in May.';
    const q = 'What changes for islanders?';
    assert.ok(!fires('negation_clash', q, "From May islanders won't have to change boats at Holm pier any more.", news));
    assert.ok(fires('negation_clash', q, "Islanders don't have to change boats at Holm pier.", news));
  });
  it('takes a question in the sources (an FAQ heading) as asserting nothing', () => {
    const faq =
      'Can I bring a guest?\nYes, members may bring one guest per visit.\nCan I pay monthly?\nNo. Memberships are paid once a year.';
    assert.ok(!fires('negation_clash', 'Can I pay monthly?', "You can't pay monthly.", faq));
  });
  it('reads "none in …" with no verb as no denial of a predicate', () => {
    const loans = 'Loans. Members may renew a book up to 3 times, but not during the first two weeks.';
    const q = 'Can I renew my book?';
    assert.ok(!fires('negation_clash', q, 'You can renew a book up to 3 times (though none in the first two weeks).', loans));
  });
  it('checks quantifiers against restrictions', () => {
    assert.ok(fires('restriction_dropped', 'Which plans have phone support?', 'Phone support is always available, on every plan.'));
  });
  it('binds a figure to its own subject', async () => {
    const result = await validate('How many seats does the Basic plan include?', 'The Basic plan includes 50 user seats.');
    assert.deepEqual(flagged(result), ['The Basic plan includes 50 user seats']);
  });
  it('recomputes simple arithmetic in the answer', async () => {
    assert.equal(
      (await validate('What do two Team plans cost?', 'The Team plan costs $40 per month, so two cost $80 per month.')).issue_count,
      0,
    );
    assert.ok(
      (await validate('What do two Team plans cost?', 'The Team plan costs $40 per month, so two cost $90 per month.')).issue_count > 0,
    );
  });
});

describe('lenient on wording', () => {
  it('reads a sum worked out in figures alone ("3 x £8 = £24") as the answer\'s arithmetic, with no words to find', () => {
    const hire = 'Kayak hire. Kayaks cost £8 an hour.';
    assert.ok(!fires('wording_uncovered', 'What do three hours cost?', '3 x £8 = £24', hire));
    assert.ok(fires('wording_uncovered', 'What do three hours cost?', 'Paddles are carved from ash by local craftsmen.', hire));
  });
  it('never flags framing and courtesy', async () => {
    const result = await validate(
      'How much is Team?',
      'Good question! According to the policy, the Team plan costs $40 per month. Let me know if you need anything else!',
    );
    assert.equal(result.issue_count, 0);
    assert.equal(result.claims.length, 1);
  });
  it('accepts inflection and contractions', async () => {
    assert.equal(
      (await validate('Is phone support on Basic?', "Phone support isn't included on Basic; it's only available on the Team plan."))
        .issue_count,
      0,
    );
  });
  it('locates a short answer through the question', async () => {
    assert.equal((await validate('In what city was the company founded?', 'Oslo')).issue_count, 0);
    assert.ok((await validate('In what city was the company founded?', 'Bergen')).issue_count > 0);
  });
  it('reads "Monday to Friday" as weekdays', async () => {
    const depot = 'The recycling depot is open to residents from 8am to 4pm on weekdays.';
    const question = 'When is the recycling depot open to residents?';
    for (const answer of [
      'Residents can drop things off between 8am and 4pm, Monday to Friday.',
      'Residents can drop things off from 8am to 4pm on weekdays.',
    ])
      assert.equal((await validate(question, answer, depot)).issue_count, 0, answer);
    assert.ok((await validate(question, 'Residents can drop things off between 8am and 4pm, Saturday and Sunday.', depot)).issue_count > 0);
  });
  it('flags an unmentioned claim', async () => {
    assert.ok((await validate('Is there a student discount?', 'Students get a 50% discount on the Team plan.')).issue_count > 0);
  });
});

describe('yes and no', () => {
  it('checks a bare yes or no as the question statement', async () => {
    // The question's statement clashes with the sources, which is what makes a bare "no" right.
    assert.ok(fires('negation_clash', 'Are monthly subscriptions refundable?', 'No.'));
    assert.ok((await validate('Was the company founded in 2011?', 'yes')).issue_count === 0);
    assert.ok((await validate('Was the company founded in 2015?', 'yes')).issue_count > 0);
  });
});

describe('list answers', () => {
  const answer = "Here's what the Basic plan gets you:\n- 5 user seats\n- $12 per month\n1. 50 user seats on Team";
  it('keeps a figure that opens a list item, and a numbered item whole', async () => {
    const result = await validate('What do I get on Basic?', answer);
    assert.deepEqual(
      result.claims.map((c) => c.text),
      ['5 user seats', '$12 per month', '50 user seats on Team'],
    );
    assert.equal(result.issue_count, 0);
    assert.deepEqual(flagged(await validate('What do I get on Basic?', answer.replace('- 5 user', '- 8 user'))), ['8 user seats']);
  });
  it("reads a lead-in before a list as announcing its items, and a count it gives as the list's own", async () => {
    const lodge = 'Lodge rules. Dogs stay downstairs. Boots are left in the porch. The stove is lit by staff only.';
    const q = 'What are the rules?';
    const list = '\n- Dogs stay downstairs.\n- Boots are left in the porch.\n- The stove is lit by staff only.';
    for (const lead of ['There are a few house rules you should know about:', 'Three rules matter most:'])
      assert.deepEqual(
        (await validate(q, `${lead}${list}`, lodge)).claims.map((c) => c.text),
        ['Dogs stay downstairs', 'Boots are left in the porch', 'The stove is lit by staff only'],
        lead,
      );
    // A count the list does not bear out, or a lead-in with no list after it, is a claim like any other.
    assert.equal((await validate(q, `Five rules matter most:${list}`, lodge)).claims[0]!.text, 'Five rules matter most');
    assert.equal((await validate(q, 'There are a few house rules: dogs stay downstairs.', lodge)).claims.length, 2);
  });
  it('reads congratulations and sympathy as courtesy, not a claim', async () => {
    await onlyTheFactIsAClaim([
      'Congratulations!',
      'Congratulations on the new job!',
      'Sorry to hear that.',
      "I'm so sorry to hear that, it's a stressful situation.",
      'That sounds really frustrating.',
      "Don't worry, this is easy to sort out.",
    ]);
    // A sentence that says what is hard about the sources' subject is a claim.
    assert.equal((await validate('Can I cancel?', "It's difficult to cancel the Basic plan.")).claims.length, 1);
  });
  it('reads "Here\'s the gist", "Here are the highlights" or what the source does not say as courtesy, not a claim', async () => {
    await onlyTheFactIsAClaim([
      "Here's the gist.",
      'Here’s a quick rundown:',
      'Here is a short summary.',
      'Here are the highlights from the meeting:',
      'Here are the highlights from the 3 May meeting.',
      "The email doesn't say anything about parking.",
    ]);
  });
  it('cuts ", and" before a clause with its own subject and verb, not before a list\'s last item', async () => {
    const two = await validate('Plans?', 'The Basic plan costs $12 per month, and Oslo is where the company was founded.');
    assert.deepEqual(
      two.claims.map((c) => c.text),
      ['The Basic plan costs $12 per month', 'Oslo is where the company was founded'],
    );
    const list = await validate('Plans?', 'Email support is available on the Basic plan, the Team plan, and every annual plan.');
    assert.equal(list.claims.length, 1);
  });
  it('keeps a short label before a colon with what it introduces', async () => {
    const result = await validate(
      'What about Team?',
      'One catch: the Team plan costs $40 per month.\n- Phone support: on the Team plan only',
    );
    assert.deepEqual(
      result.claims.map((c) => c.text),
      ['One catch: the Team plan costs $40 per month', 'Phone support: on the Team plan only'],
    );
    assert.equal(result.issue_count, 0);
    // A clause of more words before the colon states a fact of its own.
    const clauses = await validate('Plans?', 'The Basic plan includes 5 user seats: the Team plan includes 50 user seats.');
    assert.equal(clauses.claims.length, 2);
  });
});

describe('comparatives beside a figure', () => {
  it('leaves "more" beside a figure to the figures, and looks for it without one', () => {
    const q = 'What is the price gap between Team and Basic?';
    assert.ok(!fires('coverage_gap', q, 'The Team plan is $28 a month more.'));
    assert.ok(fires('coverage_gap', 'Which plan has phone support?', 'The Team plan is pricier.'));
  });
});

describe('a share the answer works out', () => {
  it('takes "a third … so €30" of the €90 the sources give as worked out, and a wrong share as contradicted', () => {
    const text = 'Allowances. The full-day allowance is €90 per day.';
    const q = 'What do I get for a short trip?';
    assert.ok(!fires('figure_contradicted', q, 'Short trips get a third of the full-day allowance, so €30 per day.', text));
    assert.ok(fires('figure_contradicted', q, 'Short trips get a third of the full-day allowance, so €35 per day.', text));
  });
});

describe('a figure given as a limit', () => {
  it('reads "the $X cap" as the limit the sources cap at', () => {
    const text = 'Late fees. A late fee of $5 per day applies, capped at $40 per loan.';
    const q = 'What is the most I can be charged?';
    assert.ok(!fires('figure_contradicted', q, 'It stays under the $40 cap per loan.', text));
    assert.ok(fires('figure_contradicted', q, 'It stays under the $50 cap per loan.', text));
  });
});

describe('a count of one', () => {
  it('reads "one" introducing a thing as no figure to look up, and "only one" as a count', () => {
    const q = 'Can I get a refund?';
    assert.ok(!fires('figure_not_stated', q, 'With one exception: annual subscriptions can be refunded within 30 days of purchase.'));
    assert.ok(fires('figure_not_stated', q, 'Only one refund can be made within 30 days of purchase.'));
    // Against another value in its place, "one" is still contradicted.
    assert.ok(fires('figure_contradicted', 'How many user seats does Basic include?', 'The Basic plan includes one user seat.'));
  });
});

describe('offsets', () => {
  it('gives claims and evidence as UTF-16 spans of answer and source', async () => {
    const answer = '🙂 Sure! The Team plan costs $40 per month. The Basic plan includes 5 user seats.';
    const result = await validate('Plans?', answer);
    for (const claim of result.claims) {
      assert.equal(answer.slice(claim.start, claim.end), claim.text);
      for (const evidence of claim.evidence) assert.ok(evidence.text.length <= 1000);
    }
  });
});

describe('reasons that say what the sources lack', () => {
  it('names the words of a claim that the sources never use', async () => {
    const gym = 'The Brook Street gym opens at 6am on weekdays and at 8am at weekends. Towels are provided at the front desk.';
    const result = await validate('What does the gym offer?', 'The gym has a heated sauna next to the front desk.', gym);
    assert.ok(result.issue_count > 0);
    const reasons = result.findings.map((finding) => finding.description).join(' ');
    assert.match(reasons, /they never use [^.]*"sauna"/);
    assert.doesNotMatch(reasons, /they never use [^.]*"desk"/, 'a word the sources use is not named');
  });
});
