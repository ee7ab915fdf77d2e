"""English: your own cards (`n`/`e`, the card form). Keys match `cards_zh.py`."""

MESSAGES: dict[str, str] = {
    # The card form's comment lines (srs/user_cards.py), in the UI language.
    "cards.form_help": "# Your card. Save and close the editor to keep it; leave it unchanged or empty to cancel.\n# A text is a plain string (one language) or {both} (both).\n# key_points: 3 to 6, each with the keywords that show it in a typed answer.\n# Lines starting with '#' are ignored.\n",
    "binding.study.new_card": "New card",
    "binding.study.edit_card": "Edit card",
    "binding.browse.new_card": "New card",
    "binding.browse.edit_card": "Edit card",
    "binding.card_editor.save": "Save",
    "binding.card_editor.cancel": "Cancel",
    "cards.title_new": "A new card of your own",
    "cards.title_edit": "Your card {id}",
    "cards.title_variant": "Your own variant of {original} ({id})",
    "cards.no_editor": "No $VISUAL or $EDITOR is set: the card is written here (Ctrl+S saves, Esc cancels).",
    "cards.copy_builtin": "This card is not yours and cannot be edited. Copy it into your deck as your own variant?",
    "cards.copy_builtin.yes": "Make my copy",
    "cards.copy_builtin.no": "Cancel",
    "cards.qa_only": "Only Q&A cards can be written here.",
    "cards.unreadable": "This card cannot be read as a Q&A card.",
    "cards.cancelled": "Cancelled: nothing was saved.",
    "cards.saved": "Saved {id} in {file}.",
}
