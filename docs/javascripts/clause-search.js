/* A clause id typed into the search box (du-en:ch1.continue) finds its entry.
 *
 * Material's query parser reads "word:" as a field name, so an id would be an invalid query.
 * Before the query reaches the search worker, each clause id in it becomes its parts, each
 * required (+du +en +ch1 +continue): the clause's own heading matches them all, in its title.
 * Nothing else of the query changes. */
(function () {
  "use strict";
  var ID = /(^|\s)([a-z][a-z0-9]*(?:-[a-z0-9]+)*):([a-z0-9][A-Za-z0-9_.-]*)/g;
  var post = Worker.prototype.postMessage;
  function parts(_, lead, doc, rest) {
    return lead + (doc + " " + rest).split(/[-:.\s]+/).filter(Boolean)
      .map(function (p) { return "+" + p; }).join(" ");
  }
  Worker.prototype.postMessage = function (message) {
    if (message && message.type === 2 && typeof message.data === "string") {
      message = Object.assign({}, message, { data: message.data.replace(ID, parts) });
      arguments[0] = message;
    }
    return post.apply(this, arguments);
  };
})();
