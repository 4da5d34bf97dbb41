"""Rule option values of Dawn Under that go beyond what a source's text allows, with the reason
(the capability ``"contracts"``'s ``beyond_text``): every other value of every option satisfies
the contracts of each source on random games of the presets that read it (tests/
test_readings.py). Keys are ``option=value``; values map a contract set (a source document, or
a part of one such as ``du-en:qr``) to why the text excludes that value.

A value listed here is the reading of *another* text (du-cs's, the 2-player section's, a quick
reference line) or a house rule; the entry of the ambiguity register named in the reason asks
the question. Values not listed are readings the source's text allows: its contracts name them
as alternatives or say nothing the value decides.
"""

from __future__ import annotations

BEYOND_TEXT: dict[str, dict[str, str]] = {
    "after_match=turn-ends": {
        "du-en": "chapter 1 ('you can immediately turn over the next lid') and the quick "
                 "reference ('keep playing') let the player go on after a placement; the turn "
                 "ending is du-cs's reading (du.after-match)"},
    "after_match=may-continue": {
        "du-cs": "every case of the Czech text ends with the next player playing, a "
                 "placement included (du-cs:prubeh.match-ends; du.after-match)"},
    "gift_trigger=holding-three": {
        "du-en": "'as soon as you collect 3 wooden stakes' (du-en:ch2.gift): the gift comes "
                 "with the third stake and the stakes go back; a gift for a player already "
                 "holding three is du-cs's reading (du.gift-trigger)"},
    "second_rat=opponent": {
        "du-en": "with 3-6 players chapter 5 gives the new rat to its finder unless the finder "
                 "started the plague (du-en:ch5.new-plague, du-en:ch5.hand-over); the "
                 "opponent taking it over is the 2-player section's rule (du-en:2p.plague; "
                 "du2p.second-rat). The quick reference's line may also be read this way "
                 "(du-en.qr-second-rat)",
        "du-cs": "du-cs starts the new plague left of the previous starter "
                 "(du-cs:prubeh.new-starter; du.second-rat)"},
    "second_rat=finder": {
        "du-cs": "du-cs starts the new plague left of the previous starter "
                 "(du-cs:prubeh.new-starter; du.second-rat)"},
    "plague_late_placement=allowed": {
        "du-en": "only the grave just opened takes garlic or a vampire (du-en:ch4.just-opened, "
                 "and the quick reference's taboo du-en:qr.taboo); allowed is a reading of "
                 "du-cs only (du.plague-late-placement)"},
    "after_plague_turn=left-of-last": {
        "du-en": "after the plague 'the left hand neighbour of the player that started the "
                 "plague' plays (du-en:ch4.next-turn), not the last one to play in it "
                 "(du-cs.after-plague-turn)"},
    "plague_occupied=pass": {
        "du-en": "chapter 4 lets a player who finds a vampire or garlic in a plague go on "
                 "(du-en:ch4.occupied, 'continues his turn, if he wants to'); the go ending "
                 "is the quick reference's 'Your turn is over' (du-en:qr.stake, "
                 "du-en:qr.garlic) and du-cs's reading (du.plague-occupied)"},
    "turn_start=may-pass": {
        "du-en": "'When you have your turn, pick a grave and turn over the lid' "
                 "(du-en:ch1.open): a turn begins with an opening; passing is a reading of "
                 "du-cs's 'can open one grave' (du.turn-start)"},
    "match_placement=optional": {
        "du-cs": "the Czech text puts the matching vampire into the grave without a choice "
                 "(du-cs:prubeh.match); 'can put him to rest' is du-en's wording "
                 "(du.match-optional)"},
}
