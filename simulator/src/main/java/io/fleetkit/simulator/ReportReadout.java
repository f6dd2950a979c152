package io.fleetkit.simulator;

import java.time.Duration;
import java.util.List;

/**
 * The HTML report's readout: with the pointer over a chart (a mouse moving, or a touch or pen down on it), a box next
 * to it gives the sample time under the pointer and each drawn line's value there, with the line's colour, name and
 * unit, and a thin vertical line marks that time on the chart. From the keyboard, a chart (each is in the tab order)
 * reads its first sample in view when it takes the focus; the left and right arrows step to the sample before or
 * after, Home and End to the first and last in view, Escape hides the readout.
 *
 * <p>Each line carries the values of the samples it is drawn through ({@code data-v}, as the report writes numbers:
 * whole numbers whole, others with two decimals), and, when a long series is drawn through a few samples per pixel
 * column ({@link HtmlReport#kept}), those samples' indices ({@code data-i}); the readout of such a chart reads "about"
 * the time, as a column's samples differ by line. The sample times are in the script once, as the report writes
 * times ({@code H:MM}, or {@code H:MM:SS}). A line hidden by the series list ({@link ReportSeriesPicker}) is not read.
 *
 * <p>Series names and units are HTML-escaped in the page and put into the box as text ({@code textContent}).
 * Stateless; thread-safe.
 */
final class ReportReadout {
  private ReportReadout() {}

  /** A line's {@code data-v} attribute (and its {@code data-i} when {@code kept} leaves samples out). */
  static void values(StringBuilder sb, List<Double> values, int[] kept) {
    sb.append(" data-v=\"");
    for (int j = 0; j < kept.length; j++) {
      sb.append(j == 0 ? "" : " ").append(HtmlReport.num(values.get(kept[j])));
    }
    sb.append('"');
    if (kept.length != values.size()) {
      sb.append(" data-i=\"");
      for (int j = 0; j < kept.length; j++) {
        sb.append(j == 0 ? "" : " ").append(kept[j]);
      }
      sb.append('"');
    }
  }

  /** The readout's style rules. */
  static void style(StringBuilder sb) {
    sb.append("figure.chart{position:relative}.readout{position:absolute;pointer-events:none;background:#fff;")
        .append("border:1px solid #bbb;padding:4px 6px;font-size:.8em;white-space:nowrap;z-index:1;")
        .append("box-shadow:0 1px 4px rgba(0,0,0,.2)}\n");
  }

  /** A chart's guide, hidden until the pointer is over the plot, which spans {@code top} to {@code bottom}. */
  static void guide(StringBuilder sb, int top, int bottom) {
    sb.append("<line class=\"guide\" x1=\"0\" x2=\"0\" y1=\"").append(top).append("\" y2=\"").append(bottom)
        .append("\" stroke=\"#444\" visibility=\"hidden\"/>\n");
  }

  /**
   * The code of every chart's readout: {@code times} are the run's sample times; the plot of each chart's SVG spans
   * {@code left} to {@code right} in its own units. Each row's swatch is drawn as the legend's (its colour, and class
   * {@code dR} for dash pattern {@code R}, line style {@code s} having pattern {@code s / colors % dashes}).
   */
  static void script(StringBuilder sb, List<Duration> times, int left, int right, int colors, int dashes) {
    sb.append("var S=[");
    for (int i = 0; i < times.size(); i++) {
      sb.append(i == 0 ? "\"" : ",\"").append(HtmlReport.clock(times.get(i))).append('"');
    }
    sb.append("];\n")
        .append("Array.prototype.forEach.call(document.querySelectorAll('figure.chart > svg'),function(svg){\n")
        .append("var fig=svg.parentNode,box=document.createElement('div'),guide=svg.querySelector('line.guide'),")
        .append("plot=svg.querySelector('svg.plot');\n")
        .append("box.className='readout';box.hidden=true;fig.appendChild(box);\n")
        .append("function parse(line){if(!line.fkX){line.fkX=line.getAttribute('points').split(' ').map(parseFloat);")
        .append("line.fkV=line.getAttribute('data-v').split(' ');var i=line.getAttribute('data-i');")
        .append("line.fkI=i?i.split(' ').map(Number):null;}}\n")
        .append("function near(xs,x){var lo=0,hi=xs.length-1;while(lo<hi){var mid=(lo+hi)>>1;")
        .append("if(xs[mid]<x){lo=mid+1;}else{hi=mid;}}return lo>0&&x-xs[lo-1]<=xs[lo]-x?lo-1:lo;}\n")
        .append("var key=null;function hide(){box.hidden=true;guide.setAttribute('visibility','hidden');key=null;}\n")
        .append("function lines(){return svg.querySelectorAll('polyline.series:not(.off)');}\n")
        // the readout at x (the plot view's units), its box next to client point cx, cy
        .append("function showAt(x,cx,cy){var drawn=lines();if(!drawn.length){hide();return;}box.textContent='';")
        .append("var head=document.createElement('b');box.appendChild(head);\n")
        .append("for(var k=0;k<drawn.length;k++){var line=drawn[k];parse(line);var j=near(line.fkX,x);if(k===0){")
        .append("head.textContent=(line.fkI?'about ':'')+S[line.fkI?line.fkI[j]:j];")
        .append("guide.setAttribute('x1',String(line.fkX[j]));guide.setAttribute('x2',String(line.fkX[j]));}")
        .append("var row=document.createElement('div'),sw=document.createElement('span'),")
        .append("r=Math.floor(Number(line.getAttribute('data-style'))/").append(colors).append(")%").append(dashes)
        .append(";if(r){sw.className='d'+r;}sw.style.setProperty('--c',line.getAttribute('stroke'));")
        .append("sw.textContent=line.getAttribute('data-series')+': '+line.fkV[j]+' '+line.getAttribute('data-unit');")
        .append("row.appendChild(sw);box.appendChild(row);}\n")
        .append("guide.setAttribute('visibility','visible');box.hidden=false;var r=fig.getBoundingClientRect(),")
        .append("px=cx-r.left+12;if(px+box.offsetWidth>r.width){px=Math.max(0,cx-r.left-12-box.offsetWidth);}")
        .append("box.style.left=px+'px';box.style.top=(cy-r.top+12)+'px';}\n")
        .append("function show(e){var m=svg.getScreenCTM();if(!m){return;}")
        .append("var x=(e.clientX-m.e)/m.a;if(x<").append(left).append("||x>").append(right)
        .append("){hide();return;}var vb=plot.viewBox.baseVal;")
        .append("showAt(vb.x+(x-").append(left).append(")*vb.width/").append(right - left)
        .append(",e.clientX,e.clientY);}\n")
        .append("svg.addEventListener('pointermove',show);svg.addEventListener('pointerdown',show);")
        .append("svg.addEventListener('pointerleave',hide);\n")
        // from the keyboard: focus reads the first sample in view, the arrows the one before or after, Home and End
        // the first and last in view, Escape hides
        .append("function step(e){var drawn=lines(),m=svg.getScreenCTM();if(!drawn.length||!m){return;}")
        .append("var line=drawn[0];parse(line);var vb=plot.viewBox.baseVal,xs=line.fkX,lo=near(xs,vb.x),")
        .append("hi=near(xs,vb.x+vb.width);if(xs[lo]<vb.x&&lo<xs.length-1){lo++;}if(xs[hi]>vb.x+vb.width&&hi>0){hi--;}")
        .append("var j=key===null?lo:Math.max(lo,Math.min(hi,near(xs,key)));")
        .append("if(e.type==='keydown'){if(e.key==='Escape'){hide();return;}")
        .append("if(e.key==='ArrowRight'){j=Math.min(hi,j+1);}else if(e.key==='ArrowLeft'){j=Math.max(lo,j-1);}")
        .append("else if(e.key==='Home'){j=lo;}else if(e.key==='End'){j=hi;}else{return;}e.preventDefault();}")
        .append("key=xs[j];var ox=").append(left).append("+(key-vb.x)*").append(right - left)
        .append("/vb.width;showAt(key,m.a*ox+m.e,m.f+m.d*40);}\n")
        .append("svg.addEventListener('focus',step);svg.addEventListener('keydown',step);")
        .append("svg.addEventListener('blur',hide);\n")
        .append("});\n");
  }
}
