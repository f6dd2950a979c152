package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

final class ReportEventTableTest {
  @Property
  void json_anyString_readsBackAndCannotEndTheScript(@ForAll String s) {
    StringBuilder sb = new StringBuilder();
    ReportEventTable.json(sb, s);
    String out = sb.toString();
    assertThat(out).startsWith("\"").endsWith("\"").doesNotContain("<", ">", "&", "\u2028", "\u2029");
    assertThat(out.chars().noneMatch(c -> c < 0x20)).as(out).isTrue();
    assertThat(decode(out)).isEqualTo(s);
  }

  @Test
  void json_markupAndControlCharacters_escaped() {
    StringBuilder sb = new StringBuilder();
    ReportEventTable.json(sb, "</script><!-- \"a\\b\" & \n\t\u0001\u2028");
    assertThat(sb).hasToString(
        "\"\\u003c/script\\u003e\\u003c!-- \\\"a\\\\b\\\" \\u0026 \\n\\t\\u0001\\u2028\"");
  }

  @Test
  void script_eachTimeKindObjectAndMessageOnce_fourIndicesPerEvent_markersByKind() {
    List<TimelineEvent> events = List.of(
        new TimelineEvent(Duration.ofSeconds(5), "PodCreated", "Pod/default/a", "created"),
        new TimelineEvent(Duration.ofSeconds(5), "PodScheduled", "Pod/default/a", "on n1"),
        new TimelineEvent(Duration.ofMinutes(1), "NodeFailed", "Node/n1", "fault injected"),
        new TimelineEvent(Duration.ofMinutes(1), "PodCreated", "Pod/default/b", "created"));
    StringBuilder sb = new StringBuilder();
    ReportEventTable.data(sb, events);
    // each distinct time also in seconds (s), for the zoom to it
    assertThat(sb.toString()).isEqualTo("<script type=\"application/json\" id=\"event-data\">"
        + "{\"t\":[\"0:00:05\",\"0:01\"],\n"
        + "\"s\":[5,60],\n"
        + "\"k\":[\"PodCreated\",\"PodScheduled\",\"NodeFailed\"],\n"
        + "\"m\":[0,0,1],\n"
        + "\"o\":[\"Pod/default/a\",\"Node/n1\",\"Pod/default/b\"],\n"
        + "\"g\":[\"created\",\"on n1\",\"fault injected\"],\n"
        + "\"r\":[0,0,0,0,0,1,0,1,1,2,1,2,1,0,2,0]}</script>\n");
    StringBuilder script = new StringBuilder();
    ReportEventTable.script(script);
    assertThat(script.toString()).startsWith("var D=JSON.parse(document.getElementById('event-data').textContent);\n"
        + "var PAGE=1000;\n");
  }

  @Test
  void script_noEvents_emptyData() {
    StringBuilder sb = new StringBuilder();
    ReportEventTable.data(sb, List.of());
    assertThat(sb.toString()).isEqualTo("<script type=\"application/json\" id=\"event-data\">{\"t\":[],\n\"s\":[],\n"
        + "\"k\":[],\n\"m\":[],\n\"o\":[],\n\"g\":[],\n\"r\":[]}</script>\n");
  }

  @Test
  void section_countsEveryEvent_tableEmptyUntilTheScriptFillsIt() {
    StringBuilder sb = new StringBuilder();
    ReportEventTable.section(sb, 140_497);
    assertThat(sb.toString()).contains("<span id=\"shown\">140497</span> of 140497 events match")
        .contains("1000 at a time").contains("<tbody></tbody>").contains("<button id=\"more\" type=\"button\" hidden>");
  }

  /** A JSON string literal's value (the test's own reading of RFC 8259, section 7). */
  private static String decode(String literal) {
    StringBuilder out = new StringBuilder();
    List<Character> plain = new ArrayList<>();
    for (int i = 1; i < literal.length() - 1; i++) {
      char c = literal.charAt(i);
      if (c != '\\') {
        plain.add(c);
        out.append(c);
        continue;
      }
      char e = literal.charAt(++i);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(literal.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> throw new AssertionError("not a JSON escape: \\" + e + " in " + literal);
      }
    }
    assertThat(plain).doesNotContain('"');
    return out.toString();
  }
}
