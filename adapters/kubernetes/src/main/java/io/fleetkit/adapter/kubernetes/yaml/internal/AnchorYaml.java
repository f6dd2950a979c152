package io.fleetkit.adapter.kubernetes.yaml.internal;

import java.io.Reader;
import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.events.NodeEvent;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.util.BufferRecycler;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Jackson's YAML parser with the anchor of the current node exposed: {@link YAMLParser#getObjectId()} gives it for
 * mappings and sequences but not for scalars ({@code image: &img nginx}), which aliases must be able to refer to.
 * Only {@link #factory()}'s {@code Reader} entry point is used.
 */
final class AnchorYaml {
  private AnchorYaml() {}

  static YAMLFactory factory() {
    return new Factory();
  }

  /** The anchor ({@code &name}) of the node at the parser's current token, or {@code null}. */
  static @Nullable String anchor(YAMLParser p) {
    return p instanceof Parser a ? a.anchor() : p.getObjectId();
  }

  private static final class Factory extends YAMLFactory {
    private static final long serialVersionUID = 1L;

    @Override
    protected YAMLParser _createParser(ObjectReadContext readCtxt, IOContext ioCtxt, Reader r) {
      return new Parser(readCtxt, ioCtxt, _getBufferRecycler(), readCtxt.getStreamReadFeatures(_streamReadFeatures),
          readCtxt.getFormatReadFeatures(_formatReadFeatures), _loadSettings, r);
    }
  }

  private static final class Parser extends YAMLParser {
    Parser(ObjectReadContext readCtxt, IOContext ioCtxt, BufferRecycler br, int streamReadFeatures,
        int formatReadFeatures, LoadSettings loadSettings, Reader reader) {
      super(readCtxt, ioCtxt, br, streamReadFeatures, formatReadFeatures, loadSettings, reader);
    }

    @Nullable String anchor() {
      return _lastEvent instanceof NodeEvent n ? n.getAnchor().map(Anchor::getValue).orElse(null) : null;
    }
  }
}
